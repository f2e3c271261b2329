import { screen } from "@testing-library/react";
import type { SignedInUser } from "@trialdesk/domain";
import { describe, expect, it } from "vitest";
import { useCanWrite } from "./navigation";
import { defaultUser, renderRoutes, signedInAs, stubApi } from "./test-utils";

const monitor: SignedInUser = {
  id: 5,
  uuid: "mon-5",
  email: "monitor@example.com",
  profile: { firstName: "Mona", lastName: "Monitor" },
  isAdmin: false,
  siteIds: [],
  kind: "monitor",
};
const staff: SignedInUser = { ...defaultUser, isAdmin: false, siteIds: [7], kind: "user" };

const resources = ["studies", "patient-visits", "queries", "therapy-categories", "worklist"];

function Right({ resource }: { resource: string }) {
  return <li>{`${resource}: ${useCanWrite(resource) ? "writes" : "reads"}`}</li>;
}

function Rights() {
  return (
    <ul aria-label="Rights">
      {resources.map((resource) => (
        <Right key={resource} resource={resource} />
      ))}
    </ul>
  );
}

async function rightsOf(user: SignedInUser) {
  stubApi(signedInAs(user, () => ({ data: { items: [] } })));
  renderRoutes([{ path: "/", element: <Rights /> }], ["/"]);
  await screen.findByText(`worklist: ${user.kind === "monitor" ? "reads" : "writes"}`);
  return screen.getAllByRole("listitem").map((item) => item.textContent);
}

describe("useCanWrite: the domain's mayUse (issue 44)", () => {
  it("gives a monitor queries only: no New, Edit or Delete anywhere else", async () => {
    expect(await rightsOf(monitor)).toEqual([
      "studies: reads",
      "patient-visits: reads",
      "queries: writes",
      "therapy-categories: reads",
      "worklist: reads",
    ]);
  });

  it("keeps staff's rights as the registry gives them: queries are the monitors' to write", async () => {
    expect(await rightsOf(staff)).toEqual([
      // Study setup belongs to administrators (issue 46).
      "studies: reads",
      "patient-visits: writes",
      "queries: reads",
      "therapy-categories: reads",
      "worklist: writes",
    ]);
  });
});
