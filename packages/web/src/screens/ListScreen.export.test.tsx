import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type ListDescription, ListScreen } from "./ListScreen";
import { defaultUser, renderRoutes, signedInAs, stubApi } from "./test-utils";

const description: ListDescription = {
  resource: "therapy-categories",
  title: "Therapy categories",
  columns: [
    { key: "id", title: "ID", sortable: true },
    { key: "name", title: "Name", sortable: true },
    { key: "code", title: "Code" },
  ],
  query: { active: "true" },
};
const routes = [{ path: "/therapy-categories", element: <ListScreen description={description} /> }];
const page = {
  items: [{ id: 1, uuid: "thc-1", name: "Cardiology", code: "CA" }],
  pagination: { page: 2, pageSize: 20, total: 21 },
};
const csv = "\uFEFFID,Name,Code\r\n1,Kardiológia,CA\r\n";

type ExportCall = { url: URL; headers: Headers };

/**
 * The API stub of test-utils, with the export answered as the server streams it: CSV bytes and a
 * Content-Disposition, or an error envelope. `release` holds the answer back until it is called.
 */
function stubExport(answer: "csv" | "error") {
  stubApi(signedInAs({ ...defaultUser, isAdmin: false, siteIds: [1] }, () => ({ data: page })));
  const envelopeFetch = globalThis.fetch;
  const calls: ExportCall[] = [];
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, "http://localhost");
      if (!url.pathname.endsWith("/export")) return envelopeFetch(input, init);
      calls.push({ url, headers: new Headers(init.headers) });
      await held;
      if (answer === "error")
        return new Response(
          JSON.stringify({ header: { result: "error", errorMessage: "Unknown column: code" }, data: null }),
          { status: 400, headers: { "Content-Type": "application/json" } },
        );
      return new Response(new TextEncoder().encode(csv), {
        status: 200,
        headers: {
          "Content-Type": "text/csv; charset=utf-8",
          "Content-Disposition": 'attachment; filename="therapy-categories-2026-11-24.csv"',
        },
      });
    }),
  );
  return { calls, release: () => release() };
}

/** Records what the temporary download link was asked to save. */
function watchDownloads() {
  const saved: { href: string; download: string; blob: Blob }[] = [];
  const blobs = new Map<string, Blob>();
  // jsdom has no object URLs; the originals come back after each test.
  URL.createObjectURL = vi.fn((blob: Blob) => {
    const href = `blob:test/${blobs.size + 1}`;
    blobs.set(href, blob);
    return href;
  });
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ href: this.href, download: this.download, blob: blobs.get(this.href) as Blob });
  });
  return saved;
}

const objectUrls = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };

afterEach(() => {
  URL.createObjectURL = objectUrls.create;
  URL.revokeObjectURL = objectUrls.revoke;
});

describe("ListScreen Export CSV", () => {
  it("exports all rows of the current search, filters and order with the list's titles, as a file", async () => {
    const { calls, release } = stubExport("csv");
    const saved = watchDownloads();
    const user = userEvent.setup();
    renderRoutes(routes, ["/therapy-categories?searchTerm=card&order=name&direction=desc&page=2"]);
    expect(await screen.findByText("Cardiology")).toBeInTheDocument();

    const button = screen.getByRole("button", { name: "Export CSV" });
    await user.click(button);
    // Busy while the server streams: the button can not start a second export.
    await waitFor(() => expect(button).toBeDisabled());
    expect(button).toHaveAttribute("aria-busy", "true");
    expect(calls).toHaveLength(1);
    const { url, headers } = calls[0];
    expect(url.pathname).toBe("/api/therapy-categories/export");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      searchTerm: "card",
      order: "name",
      direction: "desc",
      active: "true",
      columns: JSON.stringify([
        ["id", "ID"],
        ["name", "Name"],
        ["code", "Code"],
      ]),
    });
    expect(headers.get("authorization")).toBe("Bearer token");

    release();
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0].download).toBe("therapy-categories-2026-11-24.csv");
    const bytes = new Uint8Array(await saved[0].blob.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes.slice(3))).toBe("ID,Name,Code\r\n1,Kardiológia,CA\r\n");
    await waitFor(() => expect(button).toBeEnabled());
    // The link does not stay in the page.
    expect(document.querySelector("a[download]")).toBeNull();
  });

  it("says why an export failed, and saves nothing", async () => {
    const { release } = stubExport("error");
    const saved = watchDownloads();
    const user = userEvent.setup();
    renderRoutes(routes, ["/therapy-categories"]);
    await user.click(await screen.findByRole("button", { name: "Export CSV" }));
    release();
    expect(await screen.findByText("Can not export: Unknown column: code")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole("button", { name: "Export CSV" })).toBeEnabled());
    expect(saved).toHaveLength(0);
  });

  it("is not offered on a list the user may not see", async () => {
    stubApi(() => ({ status: 403, errorMessage: "You are not allowed to do this" }));
    renderRoutes(routes, ["/therapy-categories"]);
    expect(await screen.findByText("You do not have permission to see these records.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Export CSV" })).toBeNull();
  });
});
