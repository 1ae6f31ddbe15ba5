// Every call the page makes goes through @namereg/client (typed from the OpenAPI document), against the origin that
// served the page.
import { createApi, type NameregApi } from "@namereg/client";

export const api: NameregApi = createApi({ baseUrl: location.origin });

export { isNameregError, NameregError, unwrap } from "@namereg/client";
