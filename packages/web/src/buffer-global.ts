// Node's global `Buffer` for the browser, set before the signing code runs. @namereg/protocol's codecs (label and
// byte arguments, node hashes), which the client's holderCall/consoleCall and the action words use, call the
// global `Buffer` that Node provides and browsers do not; the `buffer` package is the same API for browsers. Import
// it first in every module that is loaded to run such code (actions/flow.ts, each action module).
import { Buffer } from "buffer";

globalThis.Buffer ??= Buffer as unknown as typeof globalThis.Buffer;
