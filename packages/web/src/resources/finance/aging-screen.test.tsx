import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { type Aging, type SignedInUser, type SiteOption, toIsoDate } from "@trialdesk/domain";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ActiveSiteProvider, activeSiteStorageKey } from "../../app/site";
import { type Call, defaultUser, renderRoutes, signedInAs, stubApi } from "../../screens/test-utils";
import { resourceRoutes } from "../index";
import { AgingScreen } from "./aging-screen";

const site = { id: 7, uuid: "sit-7", code: "BUD", shortName: "Budapest", city: "Budapest" } as SiteOption;
/** A coordinator of the Budapest site. */
const coordinator: SignedInUser = { ...defaultUser, isAdmin: false, siteIds: [7], kind: "user" };

const page = (items: object[]) => ({ items, pagination: { page: 1, pageSize: 250, total: items.length } });

/** The worked example on 31 Jan 2027: 255.52 of the statement due 15 Jan open, 16 days late. */
const aging = (asOf: string): Aging => ({
  currency: "EUR",
  asOf,
  notDue: "0.00",
  days1to30: "255.52",
  days31to60: "1200.00",
  days61to90: "0.00",
  over90: "1500.00",
  unbilled: "740.00",
  awaitingVerification: "370.00",
  heldBack: "444.00",
  unappliedCredit: "50.00",
});

function server(call: Call) {
  if (call.path === "/api/me/sites") return { data: { items: [site] } };
  if (call.path === "/api/projects")
    return {
      data: page([
        { id: 3, uuid: "prj-3", workingName: "Heart study", siteIds: [7], finance: { currency: "EUR" } },
        {
          id: 4,
          uuid: "prj-4",
          workingName: "Vienna only study",
          siteIds: [9],
          finance: { currency: "EUR" },
        },
      ]),
    };
  if (call.path === "/api/finance/aging") return { data: aging(call.search.get("asOf") ?? "") };
}

const routes = [
  {
    path: "/finance/aging",
    element: (
      <ActiveSiteProvider>
        <AgingScreen />
      </ActiveSiteProvider>
    ),
  },
];
const agingCalls = (calls: Call[]) => calls.filter((c) => c.path === "/api/finance/aging");

beforeEach(() => localStorage.setItem(activeSiteStorageKey(defaultUser.uuid), site.uuid));
afterEach(() => localStorage.clear());

describe("the aging view (issue 45)", { timeout: 20_000 }, () => {
  it("shows a project's open gross by days past due at the active site, with what is not billed beside it", async () => {
    const calls = stubApi(signedInAs(coordinator, server));
    const u = userEvent.setup();
    const { router } = renderRoutes(routes, ["/finance/aging"]);
    expect(await screen.findByRole("heading", { name: "Aging" })).toBeInTheDocument();
    expect(screen.getByText("Choose a project to see how late its statements are paid.")).toBeInTheDocument();
    expect(screen.getByLabelText("As of")).toHaveValue(toIsoDate(new Date()));
    expect(agingCalls(calls)).toHaveLength(0);

    await u.click(screen.getByRole("combobox", { name: "Project" }));
    expect((await screen.findAllByRole("option")).map((o) => o.textContent)).toEqual(["Heart study"]);
    await u.click(screen.getByRole("option", { name: "Heart study" }));
    const table = await screen.findByRole("table", { name: "Aging" });
    expect(Object.fromEntries(agingCalls(calls)[0].search)).toEqual({
      projectId: "3",
      siteId: "7",
      asOf: toIsoDate(new Date()),
    });
    const [, titles, values] = within(table).getAllByRole("row");
    const texts = (row: HTMLElement) => Array.from(row.children, (c) => c.textContent);
    expect(texts(titles)).toEqual([
      "Not yet due",
      "1–30 days",
      "31–60 days",
      "61–90 days",
      "Over 90 days",
      "Total open",
      "Unbilled",
      "Awaiting verification",
      "Held back",
      "Unapplied credit",
    ]);
    expect(texts(values)).toEqual([
      "0.00",
      "255.52",
      "1,200.00",
      "0.00",
      "1,500.00",
      "2,955.52",
      "740.00",
      "370.00",
      "444.00",
      "50.00",
    ]);
    expect(table).toHaveTextContent(`As of ${toIsoDate(new Date())}, amounts in EUR`);

    // Another day: kept in the URL with the project.
    await u.clear(screen.getByLabelText("As of"));
    await u.type(screen.getByLabelText("As of"), "2027-01-31");
    await waitFor(() => expect(agingCalls(calls).at(-1)?.search.get("asOf")).toBe("2027-01-31"));
    expect(await within(table).findByText(/As of 2027-01-31/)).toBeInTheDocument();
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      projectId: "3",
      asOf: "2027-01-31",
    });
  });

  it("is the route /finance/aging", () => {
    expect(resourceRoutes.map((r) => r.path)).toContain("/finance/aging");
  });
});
