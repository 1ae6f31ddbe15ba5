// fetch over Fastify's inject: the client's real HTTP path to an app without a listening socket.
import type { App } from "@namereg/server";

/** A fetch answering from `app`; each request's `METHOD /path` is pushed to `seen`. */
export function fetchOf(app: App, seen: string[] = []): typeof fetch {
  return async (input: Request | string | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    seen.push(`${request.method} ${url.pathname}`);
    const response = await app.inject({
      method: request.method as "GET",
      url: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(request.headers),
      ...(request.method === "GET" ? {} : { payload: await request.text() }),
    });
    return new Response(response.body, {
      status: response.statusCode,
      headers: { "content-type": String(response.headers["content-type"] ?? "application/json") },
    });
  };
}
