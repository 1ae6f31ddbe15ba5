// What every console route is given and reads from its request (the session the console guard set): shared by
// the console's own routes and the console routes of the claims and market areas.
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import type { ConsoleGuard, ConsoleSession } from "../../auth/console-guard.ts";
import type { ChainClient } from "../../chain/chain-client.ts";
import { ApiError } from "../errors.ts";
import type { RouteDeps } from "../route-deps.ts";
import { LabelSegment } from "../routes/path-params.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** Set by the console plugin's onRequest hook before the body is even read; null elsewhere. */
    consoleSession: ConsoleSession | null;
  }
}

export interface ConsoleContext extends Pick<RouteDeps, "db" | "chainClient" | "now"> {
  readonly guard: ConsoleGuard;
}

export function sessionOf(request: FastifyRequest): ConsoleSession {
  const session = request.consoleSession;
  // The hook runs for every console route; reaching here without a session is a wiring mistake, not a 401.
  if (session === null) throw new Error("console route without the console session hook");
  return session;
}

/** The chain client that prepares and submits; 503 chain_unavailable when none is configured. */
export function chainOf(chainClient: ChainClient | undefined): ChainClient {
  if (chainClient === undefined) throw new ApiError("chain_unavailable");
  return chainClient;
}

/** A namespace in a console body: the one rule of name segments (lower-cased, then a label). */
export const NamespaceField = z.string({ error: "is required" }).pipe(LabelSegment);
