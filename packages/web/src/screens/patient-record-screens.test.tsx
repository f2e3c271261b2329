import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { SignedInUser, SiteOption } from "@trialdesk/domain";
import { beforeEach, describe, expect, it } from "vitest";
import { ActiveSiteProvider, activeSiteStorageKey } from "../app/site";
import { Detail, Form } from "../resources/patients/patient-screens";
import { type Call, defaultUser, renderRoutes, signedInAs, stubApi } from "./test-utils";

/** Staff of one site (BUD), who sees only its patients. */
const staff: SignedInUser = { ...defaultUser, isAdmin: false, siteIds: [7] };
const site = {
  id: 7,
  uuid: "site-00000000-0000-4000-8000-000000000007",
  code: "BUD",
  shortName: "Budapest CRC",
  city: "Budapest",
} as SiteOption;
const own = {
  id: 40,
  uuid: "pt-00000000-0000-4000-8000-000000000040",
  version: 1,
  barcode: "BUD-000040",
  status: 1,
  statusDetails: null,
  recorderSiteId: 7,
  addressId: null,
  patientDetail: { firstName: "Eva", lastName: "Kovacs", birthDate: "1975-03-04", sex: "FEMALE" },
  address: null,
  contacts: [],
};
/** A patient of another site: the server answers 404 to this staff member, as for one that is gone. */
const elsewhere = "pt-00000000-0000-4000-8000-000000000099";

const routes = [
  { path: "/patients/create", element: <Form /> },
  { path: "/patients/:itemId/edit", element: <Form /> },
  { path: "/patients/:itemId", element: <Detail /> },
].map((route) => ({ ...route, element: <ActiveSiteProvider>{route.element}</ActiveSiteProvider> }));

function server() {
  return stubApi(
    signedInAs(staff, (call: Call) => {
      if (call.path === "/api/me/sites") return { data: { items: [site] } };
      if (call.path === "/api/me/menu") return { data: [] };
      if (call.path === `/api/sites/${site.uuid}`) return { data: { ...site, countryCode: "HU" } };
      if (call.path === `/api/patients/${own.uuid}`) return { data: own };
      if (call.path === `/api/patients/${elsewhere}`)
        return { status: 404, errorMessage: "Patient not found" };
      if (call.path === "/api/audit") return { data: { items: [] } };
      if (call.path === "/api/protocol-deviations")
        return { data: { items: [], pagination: { page: 1, pageSize: 100, total: 0 } } };
      return undefined;
    }),
  );
}

beforeEach(() => localStorage.setItem(activeSiteStorageKey(staff.uuid), site.uuid));

describe("the patient's barcode on the form (issue 46, point 12)", () => {
  it("says a new patient's barcode is given when first saved", async () => {
    server();
    renderRoutes(routes, ["/patients/create"]);
    const barcode = await screen.findByLabelText("Barcode");
    expect(barcode).toHaveAttribute("readonly");
    expect(barcode).toHaveAccessibleDescription("Given when the patient is first saved");
  });

  it("shows a given barcode without that hint, and is no tab stop", async () => {
    server();
    const user = userEvent.setup();
    renderRoutes(routes, [`/patients/${own.uuid}/edit`]);
    await waitFor(() => expect(screen.getByLabelText("Barcode")).toHaveValue("BUD-000040"));
    expect(screen.queryByText("Given when the patient is first saved")).not.toBeInTheDocument();
    expect(screen.getByLabelText("Barcode")).not.toHaveAccessibleDescription();
    // Tabbing back from the first field it could be typed in passes over the barcode.
    await user.click(screen.getByLabelText("First name"));
    await user.tab({ shift: true });
    expect(screen.getByLabelText("Barcode")).not.toHaveFocus();
  });
});

describe("another site's patient (issue 46, point 12)", () => {
  it("opens its edit route as not found, not as an empty form", async () => {
    server();
    renderRoutes(routes, [`/patients/${elsewhere}/edit`]);
    expect(await screen.findByRole("heading", { name: "Patient not found" })).toBeInTheDocument();
    expect(screen.queryByLabelText("First name")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Save" })).not.toBeInTheDocument();
  });

  it("opens its detail route as not found", async () => {
    server();
    renderRoutes(routes, [`/patients/${elsewhere}`]);
    expect(await screen.findByRole("heading", { name: "Patient not found" })).toBeInTheDocument();
    expect(screen.queryByText("The record could not be shown.")).not.toBeInTheDocument();
  });
});
