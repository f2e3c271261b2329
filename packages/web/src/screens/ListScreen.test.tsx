import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { type ListDescription, ListScreen } from "./ListScreen";
import { defaultUser, renderRoutes, signedInAs, stubApi } from "./test-utils";

const description: ListDescription = {
  resource: "therapy-categories",
  title: "Therapy categories",
  pageSize: 10,
  columns: [
    { key: "id", title: "ID", sortable: true },
    { key: "name", title: "Name", sortable: true },
    { key: "code", title: "Code" },
  ],
  options: { remove: true },
};

const categories = Array.from({ length: 23 }, (_, i) => ({
  id: i + 1,
  uuid: `thc-${i + 1}`,
  name: `Category ${i + 1}`,
  code: `C${i + 1}`,
}));

/** The list's API; each test's own copy of the rows, so a removal does not reach the next test. */
function stubList() {
  let rows = [...categories];
  return stubApi(({ method, path, search }) => {
    if (method === "GET" && path === "/api/therapy-categories") {
      const page = Number(search.get("page"));
      const size = Number(search.get("pagesize"));
      const term = search.get("searchTerm") ?? "";
      const found = rows.filter((r) => r.name.includes(term));
      return {
        data: {
          items: found.slice((page - 1) * size, page * size),
          pagination: { page, pageSize: size, total: found.length },
        },
      };
    }
    if (method === "DELETE" && path === "/api/therapy-categories/thc-2") {
      rows = rows.filter((r) => r.uuid !== "thc-2");
      return { data: { deleted: true } };
    }
    if (method === "DELETE") return { status: 409, errorMessage: "Therapy areas still refer to it" };
  });
}

const routes = [
  { path: "/therapy-categories", element: <ListScreen description={description} /> },
  { path: "/therapy-categories/:itemId", element: <p>detail page</p> },
];

describe("ListScreen", () => {
  it("shows the title, the rows, the pager text and page links from the query string", async () => {
    const calls = stubList();
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, ["/therapy-categories?page=2"]);
    expect(screen.getByRole("heading", { name: "Therapy categories" })).toBeInTheDocument();
    expect(await screen.findByText("Category 11")).toBeInTheDocument();
    expect(screen.getByText("Showing 11 to 20 of 23 entries")).toBeInTheDocument();
    expect(calls[0].search.get("pagesize")).toBe("10");
    expect(screen.getByRole("button", { name: "Page 2" })).toHaveAttribute("aria-current", "page");
    await user.click(screen.getByRole("button", { name: "Next page" }));
    expect(await screen.findByText("Showing 21 to 23 of 23 entries")).toBeInTheDocument();
    expect(router.state.location.search).toBe("?page=3");
    await user.click(screen.getByRole("link", { name: "View Category 21" }));
    expect(router.state.location.pathname).toBe("/therapy-categories/thc-21");
  });

  it("is read-only for staff when only administrators may change the records", async () => {
    const staff = { ...defaultUser, isAdmin: false };
    // Only administrators write therapy categories (the domain's resource registry).
    const adminOnly = description;
    stubApi(
      signedInAs(staff, () => ({
        data: { items: categories.slice(0, 3), pagination: { page: 1, pageSize: 10, total: 3 } },
      })),
    );
    renderRoutes(
      [{ path: "/therapy-categories", element: <ListScreen description={adminOnly} /> }],
      ["/therapy-categories"],
    );
    expect(await screen.findByRole("link", { name: "View Category 1" })).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Edit Category 1" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Remove Category 1" })).not.toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Add" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Add" })).not.toBeInTheDocument();
  });

  it("says that loading failed, not No records found, and Retry loads again", async () => {
    let fail = true;
    stubApi(({ path }) => {
      if (path !== "/api/therapy-categories") return undefined;
      if (fail) return { status: 500, errorMessage: "Database unavailable" };
      return { data: { items: categories.slice(0, 2), pagination: { page: 1, pageSize: 10, total: 2 } } };
    });
    const user = userEvent.setup();
    renderRoutes(routes, ["/therapy-categories"]);
    const table = await screen.findByRole("table");
    expect(await within(table).findByText("Loading failed: Database unavailable")).toBeInTheDocument();
    expect(screen.queryByText("No records found")).not.toBeInTheDocument();
    fail = false;
    await user.click(within(table).getByRole("button", { name: "Retry" }));
    expect(await screen.findByText("Category 1")).toBeInTheDocument();
    expect(screen.queryByText(/Loading failed/)).not.toBeInTheDocument();
  });

  it("says the records may not be seen when the list answers 403", async () => {
    stubApi(({ path }) =>
      path === "/api/therapy-categories" ? { status: 403, errorMessage: "Forbidden" } : undefined,
    );
    renderRoutes(routes, ["/therapy-categories"]);
    expect(await screen.findByText("You do not have permission to see these records.")).toBeInTheDocument();
    expect(screen.queryByText("No records found")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Retry" })).not.toBeInTheDocument();
  });

  it("moves a page past the end to the last page", async () => {
    stubList();
    const { router } = renderRoutes(routes, ["/therapy-categories?page=9"]);
    await waitFor(() => expect(router.state.location.search).toBe("?page=3"));
    expect(await screen.findByText("Showing 21 to 23 of 23 entries")).toBeInTheDocument();
  });

  it("hides the page links for one page and says No records found when empty", async () => {
    stubList();
    renderRoutes(routes, ["/therapy-categories?searchTerm=nothing-like-this"]);
    expect(await screen.findByText("No records found")).toBeInTheDocument();
    expect(screen.getByText("Showing 0 to 0 of 0 entries")).toBeInTheDocument();
    expect(screen.queryByRole("navigation", { name: "Pagination" })).not.toBeInTheDocument();
  });

  it("sends the search term after typing stops and keeps it in the URL with page 1", async () => {
    const calls = stubList();
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, ["/therapy-categories?page=2"]);
    await screen.findByText("Category 11");
    await user.type(screen.getByRole("searchbox", { name: "Search" }), "Category 2");
    await waitFor(() => expect(router.state.location.search).toBe("?searchTerm=Category+2"));
    expect(await screen.findByText("Showing 1 to 5 of 5 entries")).toBeInTheDocument();
    // One list call for the typed text, not one per key.
    expect(calls.filter((c) => c.search.get("searchTerm")).length).toBe(1);
  });

  it("sorts by a column header, then the other way round", async () => {
    const calls = stubList();
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, ["/therapy-categories"]);
    await screen.findByText("Category 1");
    await user.click(screen.getByRole("button", { name: "Name" }));
    expect(router.state.location.search).toBe("?order=name&direction=asc");
    expect(screen.getByRole("columnheader", { name: "Name" })).toHaveAttribute("aria-sort", "ascending");
    await user.click(screen.getByRole("button", { name: "Name" }));
    expect(router.state.location.search).toBe("?order=name&direction=desc");
    await waitFor(() => expect(calls.at(-1)?.search.get("direction")).toBe("desc"));
    expect(calls.at(-1)?.search.get("order")).toBe("name");
  });

  it("removes an item: dialog, Yes, DELETE by uuid, Item deleted, reload", async () => {
    const calls = stubList();
    const user = userEvent.setup();
    renderRoutes(routes, ["/therapy-categories"]);
    await user.click(await screen.findByRole("button", { name: "Remove Category 2" }));
    const dialog = screen.getByRole("dialog", { name: "Remove item" });
    expect(within(dialog).getByText("Are you sure you want to remove the item?")).toBeInTheDocument();
    expect(within(dialog).getByText("Category 2")).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Yes" }));
    expect(await screen.findByText("Item deleted")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(calls.some((c) => c.method === "DELETE" && c.path === "/api/therapy-categories/thc-2")).toBe(true);
    await waitFor(() => expect(screen.getByText("Showing 1 to 10 of 22 entries")).toBeInTheDocument());
    expect(screen.queryByRole("button", { name: "Remove Category 2" })).not.toBeInTheDocument();
  });

  it("Cancel keeps the item; a failed delete says Can not delete item", async () => {
    const calls = stubList();
    const user = userEvent.setup();
    renderRoutes(routes, ["/therapy-categories"]);
    await user.click(await screen.findByRole("button", { name: "Remove Category 3" }));
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
    await user.click(screen.getByRole("button", { name: "Remove Category 3" }));
    await user.click(screen.getByRole("button", { name: "Yes" }));
    expect(
      await screen.findByText("Can not delete item: Therapy areas still refer to it"),
    ).toBeInTheDocument();
  });

  it("says Can not load data when the list call fails", async () => {
    stubApi(() => ({ status: 500, errorMessage: "Internal server error" }));
    renderRoutes(routes, ["/therapy-categories"]);
    expect(await screen.findByText("Can not load data: Internal server error")).toBeInTheDocument();
  });
});
