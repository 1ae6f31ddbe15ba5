// PUT /console/namespace-profile: the owner's display name and logo for a namespace, stored off chain in
// `namespace_profiles` and served by the public roster and showcase routes (docs/api.md "Discovery: namespaces, lookup, showcase", docs/api.md "Directory"). Same owner checks as the
// policy routes; the profile is not on chain, so the session's owner check is the only authority over it.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { type ConsoleContext, NamespaceField, sessionOf } from "../../common/console-context.ts";
import { CONSOLE_ERRORS, routeRules } from "../../route-rules.ts";
import { parseLogo } from "./logo.ts";
import { saveProfile } from "./queries.ts";

export const DISPLAY_NAME_MAX = 64;

// Control characters (line breaks, tabs, escapes) would let one namespace's name break the layout of every page
// and log line that shows it.
const CONTROL = /\p{Cc}/u;

const DisplayName = z
  .string({ error: "is required" })
  .trim()
  .refine((name) => {
    const length = [...name].length;
    return length >= 1 && length <= DISPLAY_NAME_MAX;
  }, `must be 1 to ${DISPLAY_NAME_MAX} characters after trimming`)
  .refine((name) => !CONTROL.test(name), "must not contain control characters");

const ProfileBody = z.strictObject({
  namespace: NamespaceField,
  displayName: DisplayName,
  /** A data URL, or null to remove the logo. Its content is checked in the handler (console-logo.ts). */
  logo: z.string({ error: "must be a data URL or null" }).nullable(),
});

const ProfileResponse = z.object({
  ok: z.literal(true),
  namespace: z.string(),
  displayName: z.string(),
  logo: z.string().nullable(),
});

export const consoleProfileRoutes: FastifyPluginAsyncZod<ConsoleContext> = async (
  app,
  { db, guard, now },
) => {
  app.put(
    "/console/namespace-profile",
    {
      schema: {
        summary: "Owner: set the namespace's display name and logo",
        body: ProfileBody,
        response: { 200: ProfileResponse },
      },
      config: routeRules("global", CONSOLE_ERRORS),
    },
    async (request) => {
      const { namespace, displayName } = request.body;
      await guard.requireNamespaceOwner(request, sessionOf(request), namespace);
      const logo = request.body.logo === null ? null : parseLogo(request.body.logo);
      const updatedAt = now();
      await saveProfile(db.db, { label: namespace, displayName, logo, updatedAt });
      return { ok: true as const, namespace, displayName, logo };
    },
  );
};
