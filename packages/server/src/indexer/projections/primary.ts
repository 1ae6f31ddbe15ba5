// Primary-name events: an address's chosen name, set or cleared.
import type { EventsOf } from "@namereg/protocol";
import type { ArchiveRow } from "../decode.ts";
import type { Projection, ProjectionContext } from "./context.ts";

export const primary: Projection<"primary"> = {
  keys(event, keys) {
    keys.primary.add(event.address);
  },
  apply(ctx, event, row) {
    projectPrimary(ctx, event, row);
    return null;
  },
};

function projectPrimary(ctx: ProjectionContext, event: EventsOf<"primary">, row: ArchiveRow): void {
  if (event.type === "set_pri") {
    ctx.ws.primary.set(event.address, {
      address: event.address,
      name: event.data.name,
      ledger: row.ledger,
      txHash: row.txHash,
    });
  } else {
    ctx.ws.primary.set(event.address, null);
  }
}
