// Contract events in words: each type the protocol defines said as what happened, and by the contract that emits it.
import { CONTRACT_OF_EVENT, EVENT_NAMES } from "@namereg/protocol";
import { describe, expect, it } from "vitest";
import { eventContract, eventType } from "./event-words.ts";

describe("eventType", () => {
  it("names each contract event, and an unknown one by its type", () => {
    expect(eventType("text_v1")).toBe("A text record changed");
    expect(eventType("chn_v1")).toBe("A network address changed");
    expect(eventType("fancy_v9")).toBe("Contract event fancy_v9");
    // Every event docs/contracts.md lists is said in words: a contract's page shows the registry's own.
    for (const type of [
      "dep_res",
      "locked",
      "set_res",
      "prop_tr",
      "acc_tr",
      "sub_pol",
      "set_pri",
      "clm_ann",
      "fee_paid",
    ])
      expect(eventType(type), type).not.toMatch(/^Contract event |_/);
    expect(eventType("locked")).toBe("Namespace locked: its routing is frozen for good");
    expect(eventType(null)).toBe("Event without a type");
  });
});

describe("eventContract", () => {
  // words.ts keeps its own lists (the protocol package would bring the SDK into the page's first bundle): they must
  // name every event the contracts define, each by the contract that emits it, and each type in words.
  it("names every event the protocol defines by its emitting contract, and in words", () => {
    const said: Record<string, string> = {
      registry: "The registry",
      registrar: "A namespace's registrar",
      resolver: "A namespace's resolver",
      primary: "The primary-name contract",
      lookup: "The lookup contract",
      allocator: "The claim allocator",
    };
    for (const name of EVENT_NAMES) {
      expect([name, eventContract(name)]).toEqual([name, said[CONTRACT_OF_EVENT[name]]]);
      expect([name, eventType(name).startsWith("Contract event")]).toEqual([name, false]);
    }
  });

  it("says which contract emits an event, by its type; nothing for a type docs/contracts.md does not list", () => {
    expect(eventContract("name_v1")).toBe("A namespace's registrar");
    expect(eventContract("ns_v1")).toBe("The registry");
    expect(eventContract("text_v1")).toBe("A namespace's resolver");
    expect(eventContract("clm_ann")).toBe("The claim allocator");
    expect(eventContract("fancy_v9")).toBeNull();
    expect(eventContract(null)).toBeNull();
  });
});
