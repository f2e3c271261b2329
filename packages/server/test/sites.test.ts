import type { Site, SiteOption } from "@trialdesk/domain";
import { describe, expect, it } from "vitest";
import { createSite, siteInput } from "../src/seed/factories";
import { appWithUser, databaseKinds, expectCreated, resourceClient } from "./helpers";

describe.each(databaseKinds)("sites on %s", (kind) => {
  const { t, session: admin } = appWithUser(kind, { firstName: "Ada", lastName: "Admin", isAdmin: true });

  const url = "/api/sites";
  const { create, update, list } = resourceClient<Site>(
    () => t,
    "sites",
    () => admin,
  );

  it("creates a site with every field; code upper-cased, barcode prefix stored ending in -", async () => {
    // A code or prefix longer than its input keeps is refused on the field, never stored cut (issue 46).
    const long = await create(siteInput({ code: "szgd12", barcodePrefix: "szgdx" }));
    expect(long.status).toBe(400);
    expect(long.body.header.fieldErrors).toEqual([
      { field: "code", message: "Must be at most 5 characters" },
      { field: "barcodePrefix", message: "Must be at most 4 letters and numbers" },
    ]);
    const input = siteInput({
      name: "Szeged Clinical Unit",
      shortName: "Szeged CU",
      code: "szgd1",
      barcodePrefix: "sz!gd",
      address: "Tisza Lajos krt. 107.",
      city: "Szeged",
      countryCode: "hu",
    });
    const res = await create(input);
    expectCreated(res, input.uuid, {
      name: "Szeged Clinical Unit",
      shortName: "Szeged CU",
      code: "SZGD1",
      barcodePrefix: "SZGD-",
      address: "Tisza Lajos krt. 107.",
      city: "Szeged",
      countryCode: "HU",
    });
    const read = await t.request<Site>({ method: "GET", url: `${url}/${input.uuid}`, session: admin });
    expect(read.body.data).toEqual(res.body.data);
  });

  it("keeps one separator when the prefix already ends in it, and on update", async () => {
    const created = (await create(siteInput({ barcodePrefix: "AB-" }))).body.data;
    expect(created.barcodePrefix).toBe("AB-");
    const res = await update(created.uuid, { ...created, barcodePrefix: "abc" });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ barcodePrefix: "ABC-", version: 2 });
  });

  it("stores a pasted or typed QA-9X as QA9X-: letters and numbers, 4 at most, one separator added", async () => {
    const created = await create(siteInput({ barcodePrefix: "QA-9X" }));
    expect(created.status).toBe(201);
    expect(created.body.data.barcodePrefix).toBe("QA9X-");
  });

  it("gives every validation message", async () => {
    const cases: [object, { field: string; message: string }[]][] = [
      [
        { name: "", shortName: " ", code: "", barcodePrefix: "" },
        [
          { field: "name", message: "Name is required" },
          { field: "shortName", message: "Short name is required" },
          { field: "code", message: "Code is required" },
          { field: "barcodePrefix", message: "Barcode prefix is required" },
        ],
      ],
      [
        siteInput({ code: "x", barcodePrefix: "y-" }),
        [
          { field: "code", message: "Code must be at least 2 characters long" },
          { field: "barcodePrefix", message: "Barcode prefix must be at least 2 characters long" },
        ],
      ],
      [
        siteInput({ barcodePrefix: null }),
        [{ field: "barcodePrefix", message: "Barcode prefix is required" }],
      ],
      [
        siteInput({ countryCode: "HUN" }),
        [{ field: "countryCode", message: "Must be a two-letter country code" }],
      ],
      [siteInput({ name: "x".repeat(51) }), [{ field: "name", message: "Must be at most 50 characters" }]],
    ];
    for (const [payload, expected] of cases) {
      const res = await create(payload);
      expect(res.status).toBe(400);
      expect(res.body.header.fieldErrors).toEqual(expected);
    }
    const unknown = await create({ ...siteInput(), lastBarcodeNumber: 99 });
    expect(unknown.body.header.fieldErrors).toEqual([
      { field: "lastBarcodeNumber", message: "Unknown field" },
    ]);
  });

  it("refuses a duplicate code and a duplicate barcode prefix on their fields", async () => {
    const first = (await create(siteInput({ code: "DUPS", barcodePrefix: "DUPB" }))).body.data;
    const byCode = await create(siteInput({ code: "dups" }));
    expect(byCode.status).toBe(400);
    expect(byCode.body.header.fieldErrors).toEqual([{ field: "code", message: "Code must be unique" }]);
    const byPrefix = await create(siteInput({ barcodePrefix: "dupb-" }));
    expect(byPrefix.status).toBe(400);
    expect(byPrefix.body.header.fieldErrors).toEqual([
      { field: "barcodePrefix", message: "Barcode prefix must be unique" },
    ]);
    const other = (await create(siteInput())).body.data;
    const clash = await update(other.uuid, { ...other, code: first.code });
    expect(clash.body.header.fieldErrors).toEqual([{ field: "code", message: "Code must be unique" }]);
  });

  it("lists the spec's columns, searches name, short name, code and city, sorts and looks up 250", async () => {
    await create(siteInput({ name: "Lookup Riverside Clinic", city: "Győr", countryCode: "HU" }));
    const res = await list("searchTerm=riverside");
    expect(res.body.data.items).toHaveLength(1);
    expect(Object.keys(res.body.data.items[0])).toEqual(
      expect.arrayContaining(["id", "uuid", "name", "shortName", "code", "countryCode", "city"]),
    );
    expect((await list("searchTerm=győr")).body.data.items[0].name).toBe("Lookup Riverside Clinic");
    const lookup = await list("page=1&pagesize=250");
    expect(lookup.body.data.pagination).toMatchObject({ page: 1, pageSize: 250 });
    const sorted = await list("order=code&direction=desc&pagesize=250");
    const codes = sorted.body.data.items.map((s) => s.code);
    expect(codes).toEqual([...codes].sort().reverse());
    for (const order of ["shortName", "countryCode", "city", "name"])
      expect((await list(`order=${order}`)).status).toBe(200);
    expect((await list("order=barcodePrefix")).status).toBe(400);
  });

  it("refuses to remove a site a user is assigned to (409) and removes an unused one", async () => {
    const used = await createSite(t.database.db);
    await t.signedInUser({ siteIds: [used.id] });
    const refused = await t.request({ method: "DELETE", url: `${url}/${used.uuid}`, session: admin });
    expect(refused.status).toBe(409);
    expect(refused.body.header.errorMessage).toBe("Site is still used by users");
    const unused = (await create(siteInput())).body.data;
    const removed = await t.request({ method: "DELETE", url: `${url}/${unused.uuid}`, session: admin });
    expect(removed.body.data).toEqual({ deleted: true });
  });

  it("the site selector lists a staff user's assigned sites only, and every site for administrators", async () => {
    const [a, b] = [await createSite(t.database.db), await createSite(t.database.db)];
    const staff = await t.signedInUser({ siteIds: [b.id] });
    const mine = await t.request<{ items: SiteOption[] }>({
      method: "GET",
      url: "/api/me/sites",
      session: staff,
    });
    expect(mine.body.data.items.map((s) => s.code)).toEqual([b.code]);
    const all = await t.request<{ items: SiteOption[] }>({
      method: "GET",
      url: "/api/me/sites",
      session: admin,
    });
    expect(all.body.data.items.map((s) => s.code)).toEqual(expect.arrayContaining([a.code, b.code]));
  });
});
