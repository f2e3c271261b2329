import { readFile } from "node:fs/promises";
import { chooseSite, expect, newPatient, signIn, test, unique } from "./fixtures";

test("Export CSV on the patients list after a search downloads the matching patients under the list's titles", async ({
  page,
}) => {
  const lastName = `Exportő${unique()}`;
  const barcodes = [await newPatient(page, lastName), await newPatient(page, lastName)];
  await newPatient(page, `Other${unique()}`);

  await signIn(page, "/patients");
  await chooseSite(page, "BUD");
  await page.getByRole("searchbox", { name: "Search" }).fill(lastName);
  const rows = page.getByRole("row").filter({ hasText: lastName });
  await expect(rows).toHaveCount(2);
  await expect(page.getByRole("row")).toHaveCount(3);

  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^patients-\d{4}-\d{2}-\d{2}\.csv$/);
  const bytes = await readFile(await download.path());

  // UTF-8 with a byte-order mark, the list's own column titles, then only the matching rows.
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.subarray(3).toString("utf8").split("\r\n");
  expect(lines[0]).toBe("Id,Barcode,Name,Birth date,SSN,Phone,Study,Status");
  expect(lines.at(-1)).toBe("");
  const data = lines.slice(1, -1).map((line) => line.split(","));
  expect(data).toHaveLength(2);
  expect(data.map((cells) => cells[1]).sort()).toEqual([...barcodes].sort());
  for (const cells of data) {
    expect(cells[2]).toBe(`${lastName} Réka`);
    // A leading + would make a spreadsheet read the phone as a formula.
    expect(cells[5]).toBe("'+36 30 555 0101");
    expect(cells[7]).toBe("Active");
  }
});
