import { describe, expect, it } from "vitest";
import { planLookup } from "./lookup.ts";
import { httpSubnamePolicy } from "./namespace.ts";

describe("planLookup", () => {
  it("searches namespace and name labels with a plain term", () => {
    expect(planLookup("ali")).toEqual({ namespaceTerm: "ali", nameTerm: "ali", inNamespace: null });
  });

  it("searches one namespace's names with label.namespace, and namespaces by the namespace part", () => {
    expect(planLookup("al.acme")).toEqual({ namespaceTerm: "acme", nameTerm: "al", inNamespace: "acme" });
    expect(planLookup(".acme")).toEqual({ namespaceTerm: "acme", nameTerm: "", inNamespace: "acme" });
    expect(planLookup("alice.")).toEqual({ namespaceTerm: "", nameTerm: null, inNamespace: "" });
  });

  it("matches nothing with characters no label holds or with subname queries", () => {
    expect(planLookup("a%")).toEqual({ namespaceTerm: null, nameTerm: null, inNamespace: null });
    expect(planLookup("a_b.acme")).toEqual({ namespaceTerm: "acme", nameTerm: null, inNamespace: "acme" });
    expect(planLookup("x.a%")).toEqual({ namespaceTerm: null, nameTerm: null, inNamespace: null });
    expect(planLookup("pay.alice.acme")).toEqual({ namespaceTerm: null, nameTerm: null, inNamespace: null });
  });
});

describe("httpSubnamePolicy", () => {
  it("shows the chain's symbols in their HTTP form", () => {
    expect(httpSubnamePolicy("enabled")).toBe("enabled");
    expect(httpSubnamePolicy("creation_disabled")).toBe("creation-disabled");
    expect(httpSubnamePolicy("suspended")).toBe("suspended");
    expect(() => httpSubnamePolicy("creation-disabled")).toThrow(/unknown stored subname policy/);
  });
});
