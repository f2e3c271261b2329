import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { renderRoutes, stubApi } from "../../screens/test-utils";
import { Form } from "./study-screens";

const projects = [
  { id: 1, uuid: "prj-1", workingName: "HEART-FAIL III", protocolNr: "TD-2025-001" },
  { id: 2, uuid: "prj-2", workingName: "LUNG II", protocolNr: "TD-2025-002" },
];

/** The new-study form, the projects' option view as the server answers it. */
function openNewStudy() {
  stubApi((call) => {
    if (call.path === "/api/projects")
      return { data: { items: projects, pagination: { page: 1, pageSize: 250, total: projects.length } } };
    return undefined;
  });
  renderRoutes([{ path: "/studies/create", element: <Form /> }], ["/studies/create"]);
}

/** Picks an option of one of the form's selects. */
async function choose(user: ReturnType<typeof userEvent.setup>, label: string, option: string) {
  await user.click(await screen.findByLabelText(label));
  await user.click(await screen.findByRole("option", { name: option }));
}

describe("study form: the working name", () => {
  it("follows the project and the variant while it is the proposed one", async () => {
    const user = userEvent.setup();
    openNewStudy();
    await choose(user, "Project", "HEART-FAIL III (TD-2025-001)");
    await choose(user, "Variant", "NORMAL");
    const name = screen.getByLabelText(/^Working name/);
    await waitFor(() => expect(name).toHaveValue("TD-2025-001_NORMAL"));
    await choose(user, "Project", "LUNG II (TD-2025-002)");
    await waitFor(() => expect(name).toHaveValue("TD-2025-002_NORMAL"));
  });

  it("keeps a typed working name when the project or the variant changes (issue 46)", async () => {
    const user = userEvent.setup();
    openNewStudy();
    await choose(user, "Project", "HEART-FAIL III (TD-2025-001)");
    const name = screen.getByLabelText(/^Working name/);
    await user.clear(name);
    await user.type(name, "Heart failure main study");
    await choose(user, "Variant", "SUB-STUDY");
    await choose(user, "Project", "LUNG II (TD-2025-002)");
    expect(name).toHaveValue("Heart failure main study");
  });
});
