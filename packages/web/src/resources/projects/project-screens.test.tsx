import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { SignedInUser, SiteOption } from "@trialdesk/domain";
import { describe, expect, it } from "vitest";
import { ActiveSiteProvider, activeSiteStorageKey } from "../../app/site";
import { type ApiHandler, defaultUser, renderRoutes, signedInAs, stubApi } from "../../screens/test-utils";
import { Detail, Form, financeHelp } from "./project-screens";

const routes = [
  { path: "/projects", element: <p>list page</p> },
  { path: "/projects/create", element: <Form /> },
  { path: "/projects/:itemId", element: <Detail /> },
  { path: "/projects/:itemId/edit", element: <Form /> },
].map((route) => ({ ...route, element: <ActiveSiteProvider>{route.element}</ActiveSiteProvider> }));

const page = (items: object[]) => ({
  data: { items, pagination: { page: 1, pageSize: 250, total: items.length } },
});

function stubServer(onSave?: ApiHandler) {
  return stubApi((call) => {
    if (call.method === "GET" && call.path === "/api/partners") {
      if (call.search.get("cro") === "true")
        return page([{ id: 1, name: "Acme Clinical Research", code: "ACR", cro: true, sponsor: false }]);
      if (call.search.get("sponsor") === "true")
        return page([{ id: 3, name: "Medicor Pharma", code: "MDP", cro: false, sponsor: true }]);
    }
    if (call.method === "GET" && call.path === "/api/therapy-areas")
      return page([{ id: 7, name: "Heart failure", code: "HFL", therapyCategoryName: "Cardiology" }]);
    if (call.method === "GET" && call.path === "/api/sites")
      return page([{ id: 11, code: "BUD", shortName: "Budapest CRC" }]);
    if (call.method === "POST") return onSave?.(call);
  });
}

const tab = (name: string) => screen.getByRole("tab", { name: new RegExp(`^${name}`) });
const saveWhenReady = async (user: ReturnType<typeof userEvent.setup>) => {
  await waitFor(() => expect(screen.getByRole("button", { name: "Save" })).toBeEnabled());
  await user.click(screen.getByRole("button", { name: "Save" }));
};
const choose = async (user: ReturnType<typeof userEvent.setup>, label: string, option: string) => {
  await user.click(screen.getByLabelText(label));
  await user.click(await screen.findByRole("option", { name: option }));
};

/** Fills every required field of the Basic tab. */
async function fillBasic(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText("Working name"), "Heart study");
  await user.type(screen.getByLabelText("Protocol number"), "TD-2025-123");
  await choose(user, "Status", "RECRUITING");
  await choose(user, "CRO", "Acme Clinical Research (ACR)");
  await choose(user, "Sponsor", "Medicor Pharma (MDP)");
  await choose(user, "Therapy area", "Heart failure (HFL)");
  await choose(user, "Phase", "III");
  await user.click(screen.getByRole("combobox", { name: "Sites" }));
  await user.click(await screen.findByRole("option", { name: "BUD - Budapest CRC" }));
  await user.keyboard("{Escape}");
}

// Filling the Basic tab takes many clicks; a busy machine needs more than the default 5 s.
describe("the project editor", { timeout: 20_000 }, () => {
  it("has five tabs, Basic open, and recomputes the internal code as fields change", async () => {
    stubServer();
    const user = userEvent.setup();
    renderRoutes(routes, ["/projects/create"]);
    expect(screen.getByRole("heading", { name: "Add project" })).toBeInTheDocument();
    expect(screen.getAllByRole("tab").map((t) => t.textContent)).toEqual([
      "Basic",
      "Details",
      "Settings",
      "Finance",
      "Staff",
    ]);
    expect(tab("Basic")).toHaveAttribute("aria-selected", "true");
    const code = screen.getByLabelText("Internal code");
    expect(code).toHaveAttribute("readonly");
    expect(code).toHaveValue("?????????");
    await choose(user, "CRO", "Acme Clinical Research (ACR)");
    expect(code).toHaveValue("ACR??????");
    await user.type(screen.getByLabelText("Protocol number"), "X-42");
    expect(code).toHaveValue("ACR??????-42");
    await choose(user, "Therapy area", "Heart failure (HFL)");
    expect(code).toHaveValue("ACR???HFL-42");
  });

  it("counts each tab's errors in a red badge, opens the first tab with an error and shows the banner", async () => {
    const calls = stubServer();
    const user = userEvent.setup();
    renderRoutes(routes, ["/projects/create"]);
    await user.click(tab("Finance"));
    await user.type(screen.getByLabelText("Paid percentage"), "1500");
    // Kept to 3 digits.
    expect(screen.getByLabelText("Paid percentage")).toHaveValue("150");
    await saveWhenReady(user);
    expect(screen.getByRole("alert")).toHaveTextContent("Please correct the errors!");
    // All required messages are on Basic, which opens; the paid percentage counts on Finance.
    expect(tab("Basic")).toHaveAttribute("aria-selected", "true");
    expect(tab("Basic")).toHaveAccessibleName("Basic (8 errors)");
    expect(tab("Finance")).toHaveAccessibleName("Finance (1 error)");
    expect(tab("Details")).toHaveAccessibleName("Details");
    expect(screen.getByLabelText("Working name")).toHaveAccessibleDescription("Working name is required");
    expect(screen.getByLabelText("Working name")).toHaveFocus();
    expect(calls.filter((c) => c.method !== "GET")).toHaveLength(0);

    await fillBasic(user);
    expect(tab("Basic")).toHaveAccessibleName("Basic");
    await saveWhenReady(user);
    expect(tab("Finance")).toHaveAttribute("aria-selected", "true");
    expect(screen.getByLabelText("Paid percentage")).toHaveAccessibleDescription(
      "Paid percentage cannot exceed 100 The part of each earning payable during the study; the rest is held back until close-out. At most 100.",
    );
    expect(screen.getByRole("alert")).toHaveTextContent("Please correct the errors!");
  });

  it("opens the tab of a server field error, and after a save says Project saved and moves to the edit route", async () => {
    let refuse = true;
    stubServer((call) =>
      refuse
        ? {
            status: 400,
            errorMessage: "Invalid field data",
            fieldErrors: [{ field: "finance.vat", message: "Bad VAT" }],
          }
        : {
            status: 201,
            data: { ...(call.body as object), id: 4, version: 1, internalCode: "ACRMDPHFL123" },
          },
    );
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, ["/projects/create"]);
    await fillBasic(user);
    await saveWhenReady(user);
    await waitFor(() => expect(tab("Finance")).toHaveAttribute("aria-selected", "true"));
    expect(tab("Finance")).toHaveAccessibleName("Finance (1 error)");
    expect(screen.getByRole("alert")).toHaveTextContent("Please correct the errors!");
    refuse = false;
    await saveWhenReady(user);
    expect(await screen.findByText("Project saved")).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toMatch(/^\/projects\/prj-[0-9a-f-]+\/edit$/));
    expect(await screen.findByRole("heading", { name: "Edit project" })).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("says Error during save when the save fails otherwise", async () => {
    stubServer(() => ({ status: 500, errorMessage: "Something went wrong" }));
    const user = userEvent.setup();
    renderRoutes(routes, ["/projects/create"]);
    await fillBasic(user);
    await saveWhenReady(user);
    const toasts = screen.getByRole("status", { name: "toasts" });
    await waitFor(() => expect(within(toasts).getByText(/Error during save/)).toBeInTheDocument());
  });

  it("finance numbers read the same typed or pasted: the fee keeps decimals, whole-number fields refuse them", async () => {
    const calls = stubServer((call) => ({
      status: 201,
      data: { ...(call.body as object), id: 4, version: 1 },
    }));
    const user = userEvent.setup();
    renderRoutes(routes, ["/projects/create"]);
    await fillBasic(user);
    await user.click(tab("Finance"));
    const fee = screen.getByLabelText("Patient fee");
    const settlement = screen.getByLabelText("Settlement days");
    const payment = screen.getByLabelText("Payment days");

    await user.type(fee, "12.5");
    expect(fee).toHaveValue("12.5");
    await user.clear(fee);
    await user.click(fee);
    await user.paste("12,5");
    expect(fee).toHaveValue("12.5");

    await user.type(settlement, "12.5");
    expect(settlement).toHaveValue("12.5");
    expect(settlement).toHaveAccessibleDescription(/^Must be a whole number /);
    await user.clear(settlement);
    await user.click(settlement);
    await user.paste("12.5");
    expect(settlement).toHaveValue("12.5");
    expect(settlement).toHaveAccessibleDescription(/^Must be a whole number /);
    await user.type(payment, "-5.5");
    expect(payment).toHaveValue("-5.5");
    expect(payment).toHaveAccessibleDescription(/^Must not be negative /);

    // Refused on save too: nothing is sent while a field holds what it cannot store.
    await saveWhenReady(user);
    expect(tab("Finance")).toHaveAccessibleName("Finance (2 errors)");
    expect(calls.filter((c) => c.method === "POST")).toHaveLength(0);

    await user.clear(settlement);
    await user.type(settlement, "12");
    await user.clear(payment);
    await user.type(payment, "5");
    expect(payment).not.toHaveAttribute("aria-invalid", "true");
    await saveWhenReady(user);
    expect(await screen.findByText("Project saved")).toBeInTheDocument();
    const body = calls.find((c) => c.method === "POST")?.body as { finance: Record<string, unknown> };
    expect(body.finance).toMatchObject({ settlementDays: 12, paymentDays: 5, patientFee: 12.5 });
  });
});

describe("the project's finance (issue 45)", { timeout: 20_000 }, () => {
  it("explains each finance term under its field on the Finance tab", async () => {
    stubServer();
    const user = userEvent.setup();
    renderRoutes(routes, ["/projects/create"]);
    await user.click(tab("Finance"));
    const described = (label: string) => screen.getByLabelText(label).getAttribute("aria-describedby") ?? "";
    const helpOf = (label: string) =>
      described(label)
        .split(" ")
        .map((id) => document.getElementById(id)?.textContent)
        .join(" ");
    expect(helpOf("Patient fee")).toBe(financeHelp.patientFee);
    expect(financeHelp.patientFee).toMatch(/Each mandatory plan visit earns an equal share/);
    expect(helpOf("Paid percentage")).toMatch(/the rest is held back until close-out/);
    expect(helpOf("Monitored percentage")).toMatch(/patients to source-verify/);
    expect(helpOf("VAT (%)")).toBe("Percent added to a statement's net.");
    expect(helpOf("Payment days")).toMatch(/statement date \+ payment days = the statement's due date/);
    expect(helpOf("Settlement days")).toMatch(/How often a statement is due/);
    expect(helpOf("Currency")).toMatch(/HUF in whole forints/);
  });

  const site = { id: 7, uuid: "sit-7", code: "BUD", shortName: "Budapest", city: "Budapest" } as SiteOption;
  const project = {
    id: 3,
    uuid: "prj-3",
    version: 1,
    workingName: "Heart study",
    protocolNr: "TD-2025-123",
    internalCode: "ACRMDPHFL123",
    projectStatusId: 1,
    siteIds: [7],
    croName: "Acme Clinical Research",
    sponsorName: "Medicor Pharma",
    therapyAreaName: "Heart failure",
    details: { phase: 3 },
    settings: {},
    finance: { currency: "EUR", patientFee: 1850, paidPercentage: 80, vat: 27, paymentDays: 45 },
  };
  const summary = {
    currency: "EUR",
    earned: "2220.00",
    heldBack: "444.00",
    awaitingVerification: "0.00",
    unbilled: "0.00",
    billed: "2255.52",
    received: "2000.00",
    open: "255.52",
  };
  const detailServer: ApiHandler = (call) => {
    if (call.path === "/api/me/sites") return { data: { items: [site] } };
    if (call.path === "/api/projects/prj-3") return { data: project };
    if (call.path === "/api/sites") return page([{ id: 7, code: "BUD", shortName: "Budapest" }]);
    if (call.path === "/api/finance/summary") return { data: summary };
    if (call.path === "/api/audit") return { data: { items: [] } };
  };
  const totalsOf = async (name: RegExp) => {
    const region = await screen.findByRole("region", { name });
    await within(region).findByText("2,220.00");
    return Object.fromEntries(
      within(region)
        .getAllByRole("term")
        .map((term) => [term.textContent, term.nextElementSibling?.textContent]),
    );
  };

  it("shows an administrator what the project earned and was paid at all its sites", async () => {
    const calls = stubApi(detailServer);
    renderRoutes(routes, ["/projects/prj-3"]);
    expect(await totalsOf(/^Finance, all sites/)).toEqual({
      Earned: "2,220.00",
      "Held back": "444.00",
      Billed: "2,255.52",
      Received: "2,000.00",
      Open: "255.52",
    });
    const asked = calls.find((c) => c.path === "/api/finance/summary");
    expect(Object.fromEntries(asked?.search ?? [])).toEqual({ projectId: "3" });
  });

  it("shows staff the project's finance at the active site", async () => {
    const coordinator: SignedInUser = { ...defaultUser, isAdmin: false, siteIds: [7], kind: "user" };
    localStorage.setItem(activeSiteStorageKey(coordinator.uuid), site.uuid);
    const calls = stubApi(signedInAs(coordinator, detailServer));
    renderRoutes(routes, ["/projects/prj-3"]);
    expect(await totalsOf(/^Finance at BUD/)).toMatchObject({ Earned: "2,220.00", Open: "255.52" });
    const asked = calls.find((c) => c.path === "/api/finance/summary");
    expect(Object.fromEntries(asked?.search ?? [])).toEqual({ projectId: "3", siteId: "7" });
    localStorage.clear();
  });
});
