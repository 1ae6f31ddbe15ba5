// simulateTransaction: failures are a normal result with `error`, never a JSON-RPC error.
import { xdr } from "@stellar/stellar-sdk";
import type { AuthMode } from "../../chain/soroban/simulate.ts";
import type { MethodHandler } from "../context.ts";
import { invalidParams } from "../errors.ts";
import { optionalString, requiredString, xdrFormat } from "../params.ts";

const AUTH_MODES = new Set(["enforce", "record", "record_allow_nonroot"]);

export const simulateTransaction: MethodHandler = (params, ctx) => {
  const format = xdrFormat(params);
  const encoded = requiredString(params, "transaction");
  const authMode = optionalString(params, "authMode");
  if (authMode !== undefined && authMode !== "" && !AUTH_MODES.has(authMode)) {
    throw invalidParams(`invalid authMode: ${authMode}`);
  }
  const latestLedger = ctx.chain.latest.sequence;
  let envelope: xdr.TransactionEnvelope;
  try {
    envelope = xdr.TransactionEnvelope.fromXdr(encoded, "base64");
  } catch {
    return { error: "Could not unmarshal transaction", latestLedger };
  }
  const sim = ctx.chain.simulate(
    envelope,
    authMode === undefined || authMode === "" ? undefined : (authMode as AuthMode),
  );
  const events = sim.events.map((e) => (format === "json" ? e.toJson() : e.toXdr("base64")));
  const eventsField = format === "json" ? { eventsJson: events } : { events };
  if (!sim.ok) return { error: sim.error, ...eventsField, latestLedger };
  const isInvocation = sim.returnValue !== undefined;
  return {
    latestLedger,
    minResourceFee: sim.minResourceFee.toString(),
    ...(format === "json"
      ? { transactionDataJson: sim.transactionData.toJson() }
      : { transactionData: sim.transactionData.toXdr("base64") }),
    ...eventsField,
    ...(isInvocation
      ? {
          results: [
            format === "json"
              ? { authJson: sim.auth.map((a) => a.toJson()), returnValueJson: sim.returnValue?.toJson() }
              : { auth: sim.auth.map((a) => a.toXdr("base64")), xdr: sim.returnValue?.toXdr("base64") },
          ],
        }
      : {}),
    ...(sim.stateChanges.length === 0
      ? {}
      : {
          stateChanges: sim.stateChanges.map((c) =>
            format === "json"
              ? {
                  type: c.type,
                  keyJson: c.key.toJson(),
                  beforeJson: c.before?.toJson() ?? null,
                  afterJson: c.after?.toJson() ?? null,
                }
              : {
                  type: c.type,
                  key: c.key.toXdr("base64"),
                  before: c.before?.toXdr("base64") ?? null,
                  after: c.after?.toXdr("base64") ?? null,
                },
          ),
        }),
  };
};
