// The OpenAPI 3.1 `webhooks` section: one entry per change type (changes/catalogue.ts), its request body the event
// as `/v1/stream` sends it and hosted webhooks deliver it (docs/webhooks.md). Generated from the catalogue's own
// zod schemas, so the document, the client's typed union (generated from the document) and the writers agree.
import { z } from "zod";
import { CHANGE_SUMMARIES, CHANGE_TYPES, changeEventSchema } from "../changes/catalogue.ts";

export function changeWebhooks(): Record<string, object> {
  return Object.fromEntries(
    CHANGE_TYPES.map((type) => {
      const { $schema: _, ...schema } = z.toJSONSchema(changeEventSchema(type), { io: "output" });
      return [
        type,
        {
          post: {
            operationId: `change:${type}`,
            summary: CHANGE_SUMMARIES[type],
            description:
              `The \`${type}\` change event, as \`GET /v1/stream\` sends it (SSE \`data\`) and a hosted webhook ` +
              "delivers it (the request body). See docs/webhooks.md.",
            tags: ["change events"],
            requestBody: { required: true, content: { "application/json": { schema } } },
            responses: { "200": { description: "Any 2xx answer acknowledges the delivery." } },
          },
        },
      ];
    }),
  );
}
