// GET /v1/network (docs/api.md "GET /v1/network"): the network this deployment serves and the public Stellar RPC
// it names for wallets' own checks (PUBLIC_RPC_URL). The web app verifies a claim announcement against that RPC
// from the browser before the wallet signs (docs/api.md "Claim fee", rule 2): the service's quote alone is not
// enough, so the page needs a view of the chain that is not this service's. Configuration only: no chain read.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { RouteDeps } from "../../route-deps.ts";
import { routeRules } from "../../route-rules.ts";

const NetworkResponse = z.object({
  network: z.string().nullable().describe("The network passphrase; null when none is configured."),
  publicRpcUrl: z
    .string()
    .nullable()
    .describe(
      "A public Stellar RPC (answering CORS) to check transactions against before signing; null when none is configured.",
    ),
});

export const networkRoutes: FastifyPluginAsyncZod<Pick<RouteDeps, "config">> = async (app, { config }) => {
  app.get(
    "/v1/network",
    {
      schema: {
        summary: "The network and the public RPC wallets check transactions against",
        response: { 200: NetworkResponse },
      },
      config: routeRules("global", []),
    },
    async () => ({ network: config.chain.networkPassphrase, publicRpcUrl: config.chain.publicRpcUrl }),
  );
};
