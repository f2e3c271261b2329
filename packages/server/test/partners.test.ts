import type { Partner } from "@trialdesk/domain";
import { describe, expect, it } from "vitest";
import { createPartner, partnerInput } from "../src/seed/factories";
import { appWithUser, databaseKinds, expectCreated, resourceClient } from "./helpers";

describe.each(databaseKinds)("partners on %s", (kind) => {
  const { t, session: admin } = appWithUser(kind, { firstName: "Ada", lastName: "Admin", isAdmin: true });

  const _url = "/api/partners";
  const { create, update, list } = resourceClient<Partner>(
    () => t,
    "partners",
    () => admin,
  );

  it("creates and updates a partner; code upper-cased, flags kept", async () => {
    // A code longer than the input keeps is refused on the field, never stored cut (issue 46).
    const long = await create(partnerInput({ name: "Quintiles Hungary", code: "qtlx", cro: true }));
    expect(long.status).toBe(400);
    expect(long.body.header.fieldErrors).toEqual([
      { field: "code", message: "Must be at most 3 characters" },
    ]);
    const input = partnerInput({ name: "Quintiles Hungary", code: "qtl", cro: true });
    const res = await create(input);
    expectCreated(res, input.uuid, {
      name: "Quintiles Hungary",
      code: "QTL",
      cro: true,
      sponsor: false,
    });
    const updated = await update(input.uuid as string, { ...res.body.data, sponsor: true, cro: false });
    expect(updated.body.data).toMatchObject({ cro: false, sponsor: true, version: 2 });
  });

  it("gives every validation message", async () => {
    const cases: [object, { field: string; message: string }[]][] = [
      [
        { name: "", code: "" },
        [
          { field: "name", message: "Name is required" },
          { field: "code", message: "Code is required" },
        ],
      ],
      [{ code: "AB" }, [{ field: "name", message: "Name is required" }]],
      [
        { name: "Short code", code: "a" },
        [{ field: "code", message: "Code must be at least 2 characters long" }],
      ],
      [{ name: "Flags", code: "FLG", cro: "yes" }, [{ field: "cro", message: "Must be true or false" }]],
    ];
    for (const [payload, expected] of cases) {
      const res = await create(payload);
      expect(res.status).toBe(400);
      expect(res.body.header.fieldErrors).toEqual(expected);
    }
  });

  it("refuses a duplicate code on the code field, on create and update", async () => {
    const first = (await create(partnerInput({ code: "DPL" }))).body.data;
    const res = await create(partnerInput({ code: "dpl" }));
    expect(res.status).toBe(400);
    expect(res.body.header.fieldErrors).toEqual([{ field: "code", message: "Code must be unique" }]);
    const other = (await create(partnerInput())).body.data;
    const clash = await update(other.uuid, { ...other, code: first.code });
    expect(clash.status).toBe(400);
    expect(clash.body.header.fieldErrors).toEqual([{ field: "code", message: "Code must be unique" }]);
  });

  it("filters the lookup by cro=true and sponsor=true", async () => {
    await createPartner(t.database.db, { cro: true, sponsor: false });
    await createPartner(t.database.db, { cro: false, sponsor: true });
    await createPartner(t.database.db, { cro: true, sponsor: true });
    await createPartner(t.database.db, { cro: false, sponsor: false });
    const all = (await list("page=1&pagesize=250")).body.data;
    expect(all.pagination.pageSize).toBe(250);
    expect(Object.keys(all.items[0])).toEqual(expect.arrayContaining(["name", "code", "sponsor", "cro"]));
    const cros = (await list("page=1&pagesize=250&cro=true")).body.data.items;
    expect(cros.length).toBe(all.items.filter((p) => p.cro).length);
    expect(cros.every((p) => p.cro)).toBe(true);
    expect(cros.some((p) => p.sponsor)).toBe(true);
    const sponsors = (await list("page=1&pagesize=250&sponsor=true")).body.data.items;
    expect(sponsors.length).toBe(all.items.filter((p) => p.sponsor).length);
    expect(sponsors.every((p) => p.sponsor)).toBe(true);
    const both = (await list("cro=true&sponsor=true&pagesize=250")).body.data.items;
    expect(both.length).toBeGreaterThan(0);
    expect(both.every((p) => p.cro && p.sponsor)).toBe(true);
    const notCro = (await list("cro=false&pagesize=250")).body.data.items;
    expect(notCro.every((p) => !p.cro)).toBe(true);
    const bad = await list("cro=yes");
    expect(bad.status).toBe(400);
    expect(bad.body.header.fieldErrors).toEqual([{ field: "cro", message: "Must be true or false" }]);
  });

  it("searches name and code", async () => {
    await create(partnerInput({ name: "Zephyr Biologics", code: "ZPH" }));
    expect((await list("searchTerm=zephyr")).body.data.items.map((p) => p.code)).toEqual(["ZPH"]);
    expect((await list("searchTerm=zph")).body.data.items.map((p) => p.name)).toEqual(["Zephyr Biologics"]);
  });
});
