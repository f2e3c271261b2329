import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { invalidateResource, queryKeys } from "./queries";

describe("invalidateResource", () => {
  it("after a patient visit is saved or deleted, reads the worklist, summary and deviations again, never an open form", async () => {
    const client = new QueryClient();
    const keys = {
      deviations: queryKeys.list("protocol-deviations", { siteId: 7 }),
      homeTile: queryKeys.list("protocol-deviations", { siteId: 7, status: "OPEN", pagesize: 1 }),
      worklist: ["worklist", "counts", { siteId: 7 }],
      summary: ["patient-visit-summary", "std-1", 7],
      visitDetail: ["patient-visit-detail", 1, 10],
      visitForm: queryKeys.form("patient-visits", "pv-1"),
      deviationForm: queryKeys.form("protocol-deviations", "dev-1"),
      patients: queryKeys.list("patients", {}),
    };
    for (const key of Object.values(keys)) client.setQueryData(key, {});
    await invalidateResource(client, "patient-visits");
    const invalidated = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;
    for (const key of [keys.deviations, keys.homeTile, keys.worklist, keys.summary, keys.visitDetail])
      expect(invalidated(key)).toBe(true);
    for (const key of [keys.visitForm, keys.deviationForm, keys.patients])
      expect(invalidated(key)).toBe(false);
  });
});
