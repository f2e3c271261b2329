import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { SignedInUser } from "@trialdesk/domain";
import { describe, expect, it } from "vitest";
import {
  type Call,
  defaultUser,
  envelopeResponse,
  heldBack,
  type Reply,
  renderRoutes,
  saveWhenReady,
  signedInAs,
  stubApi,
  stubFetch,
} from "../../screens/test-utils";
import { Editor, List } from "./studyplan-screens";

const studyUuid = "std-1";
const planUuid = "spl-1";
const visits = [
  { id: 1, uuid: "vis-1", name: "Screening", visitTypeId: 20, mandatory: 1 },
  { id: 2, uuid: "vis-2", name: "Week 2", visitTypeId: 60, mandatory: 1 },
  { id: 3, uuid: "vis-3", name: "Week 3", visitTypeId: 60, mandatory: 1 },
];
const entry = (fromVisitId: number, toVisitId: number | null, days: number, sequence: number) => ({
  id: sequence,
  fromVisitId,
  toVisitId,
  daysFromStart: days,
  allowedDaysBefore: 1,
  allowedDaysAfter: 1,
  sequence,
});
// Days typed as intervals: 14 to Week 2, then 7 more to Week 3.
const plan = {
  id: 5,
  uuid: planUuid,
  version: 2,
  studyId: 9,
  studyUuid,
  studyName: "TD-2025-001_NORMAL",
  calculationMode: "default",
  schedule: [entry(1, 2, 14, 1), entry(2, 3, 7, 2), entry(3, null, 0, 3)],
};

const listRow = {
  studyId: 9,
  studyUuid,
  studyName: "TD-2025-001_NORMAL",
  protocolNr: "TD-2025-001",
  studyplanId: 5,
  studyplanUuid: planUuid,
  studyplanVisitCount: 3,
  mandatoryStudyplanVisitCount: 2,
  mandatoryVisitCount: 3,
};

/** The server's answers: the study, its plan and visits; saves refused with `refuse` when given. */
const answers =
  (refuse?: { message: string; field: string }) =>
  (call: Call): Reply | undefined => {
    if (call.path === `/api/studies/${studyUuid}`)
      return { data: { uuid: studyUuid, workingName: plan.studyName } };
    if (call.path === "/api/studyplans" && call.method === "GET")
      return { data: { items: [listRow], pagination: { page: 1, pageSize: 100, total: 1 } } };
    if (refuse && call.method !== "GET")
      return { status: 400, errorMessage: "Invalid field data", fieldErrors: [refuse] };
    if (call.path === `/api/studyplans/${planUuid}` && call.method === "GET") return { data: plan };
    if (call.path === `/api/studyplans/${planUuid}` && call.method === "PUT")
      return { data: { ...plan, ...(call.body as object), version: 3 } };
    if (call.path === `/api/studies/${studyUuid}/visits`)
      return { data: { items: visits, pagination: { page: 1, pageSize: 100, total: 3 } } };
  };

const server = (refuse?: { message: string; field: string }) => stubApi(answers(refuse));

const open = () =>
  renderRoutes(
    [{ path: "/studyplans/:studyplanUuid/edit", element: <Editor /> }],
    [`/studyplans/${planUuid}/edit`],
  );

describe("studyplan editor: calculation (issue 12)", () => {
  it("offers From the first visit / From the previous visit, warns without blocking on decreasing days, and saves the choice", async () => {
    const u = userEvent.setup();
    const calls = server();
    open();
    const group = await screen.findByRole("group", { name: "Calculation" });
    const first = screen.getByRole("radio", { name: "From the first visit" });
    const previous = screen.getByRole("radio", { name: "From the previous visit" });
    expect(group).toContainElement(first);
    await waitFor(() => expect(first).toBeChecked());
    expect(await screen.findByText(/The days go down along this plan/)).toHaveAttribute("role", "status");

    // Save stays possible with the warning shown.
    const save = screen.getByRole("button", { name: "Save" });
    await u.click(previous);
    expect(previous).toBeChecked();
    expect(screen.queryByText(/The days go down along this plan/)).not.toBeInTheDocument();
    await waitFor(() => expect(save).toBeEnabled());
    await u.click(save);
    await waitFor(() => expect(calls.some((c) => c.method === "PUT")).toBe(true));
    expect(calls.find((c) => c.method === "PUT")?.body).toMatchObject({
      calculationMode: "previous",
      version: 2,
    });
  });

  it("keeps a choice made while the save is on its way, to be saved on the saved version", async () => {
    const u = userEvent.setup();
    const answer = heldBack();
    let saved = plan;
    const calls = stubApi(async (call: Call) => {
      if (call.path !== `/api/studyplans/${planUuid}` || call.method !== "PUT") return answers()(call);
      await answer.released;
      saved = { ...saved, ...(call.body as object), version: saved.version + 1 };
      return { data: saved };
    });
    open();
    const first = await screen.findByRole("radio", { name: "From the first visit" });
    const previous = screen.getByRole("radio", { name: "From the previous visit" });
    await waitFor(() => expect(first).toBeChecked());
    await u.click(previous);
    await saveWhenReady(u);
    await u.click(first);
    answer.release();
    expect(await screen.findByText("Studyplan saved successfully")).toBeInTheDocument();
    expect(first).toBeChecked();
    await saveWhenReady(u);
    await waitFor(() => expect(calls.filter((c) => c.method === "PUT")).toHaveLength(2));
    expect(calls.filter((c) => c.method === "PUT")[1].body).toMatchObject({
      calculationMode: "default",
      version: 3,
    });
  });

  it("keeps a choice made while a new plan is created, in the same editor on the plan's edit route", async () => {
    const u = userEvent.setup();
    const answer = heldBack();
    let created: Record<string, unknown> | null = null;
    const calls = stubApi(async (call: Call) => {
      if (call.path === "/api/studyplans" && call.method === "GET")
        return { data: { items: [], pagination: { page: 1, pageSize: 100, total: 0 } } };
      if (call.path === "/api/studyplans" && call.method === "POST") {
        await answer.released;
        created = { ...(call.body as object), id: 7, version: 1, studyName: plan.studyName, studyUuid };
        return { status: 201, data: created };
      }
      if (created && call.path === `/api/studyplans/${created.uuid}` && call.method === "GET")
        return { data: created };
      if (created && call.path === `/api/studyplans/${created.uuid}` && call.method === "PUT")
        return { data: { ...created, ...(call.body as object), version: 2 } };
      return answers()(call);
    });
    const { router } = renderRoutes(
      [
        { path: "/studies/:studyUuid/studyplans/create", element: <Editor /> },
        { path: "/studyplans/:studyplanUuid/edit", element: <Editor /> },
      ],
      [`/studies/${studyUuid}/studyplans/create`],
    );
    const first = await screen.findByRole("radio", { name: "From the first visit" });
    await waitFor(() => expect(first).toBeChecked());
    await u.click(screen.getByRole("radio", { name: "From the previous visit" }));
    await saveWhenReady(u);
    await u.click(first);
    answer.release();
    expect(await screen.findByText("Studyplan saved successfully")).toBeInTheDocument();
    const post = calls.find((c) => c.method === "POST")?.body as { uuid?: string } | undefined;
    await waitFor(() => expect(router.state.location.pathname).toBe(`/studyplans/${post?.uuid}/edit`));
    expect(screen.getByRole("radio", { name: "From the first visit" })).toBeChecked();
    // The edit route reads the plan again (its copy is kept, being the version saved).
    await waitFor(() =>
      expect(calls.some((c) => c.method === "GET" && c.path.endsWith(`${post?.uuid}`))).toBe(true),
    );
    expect(screen.getByRole("radio", { name: "From the first visit" })).toBeChecked();
    await saveWhenReady(u);
    await waitFor(() => expect(calls.filter((c) => c.method === "PUT")).toHaveLength(1));
    expect(calls.find((c) => c.method === "PUT")?.body).toMatchObject({
      uuid: post?.uuid,
      calculationMode: "default",
      version: 1,
    });
  });

  it("gives no warning when the days grow along the plan", async () => {
    server();
    plan.schedule[1].daysFromStart = 21;
    try {
      open();
      await waitFor(() => expect(screen.getByRole("radio", { name: "From the first visit" })).toBeChecked());
      await screen.findByText("Week 3");
      expect(screen.queryByText(/The days go down along this plan/)).not.toBeInTheDocument();
    } finally {
      plan.schedule[1].daysFromStart = 7;
    }
  });
});

describe("studyplans (issue 15, bugs 6 and 9)", () => {
  it("opens a study's existing plan from the create route instead of an empty one", async () => {
    server();
    const { router } = renderRoutes(
      [
        { path: "/studies/:studyUuid/studyplans/create", element: <Editor /> },
        { path: "/studyplans/:studyplanUuid/edit", element: <Editor /> },
      ],
      [`/studies/${studyUuid}/studyplans/create`],
    );
    await waitFor(() => expect(router.state.location.pathname).toBe(`/studyplans/${planUuid}/edit`));
    // The plan's visits fill the Studyplan visits pane (an empty plan would list them as available).
    await waitFor(() =>
      expect(screen.getByRole("region", { name: /^Studyplan visits/ })).toHaveTextContent("Week 3"),
    );
  });

  it("shows the server's field messages in an error bar when a save is refused", async () => {
    const u = userEvent.setup();
    server({ field: "studyId", message: "The study already has a studyplan" });
    open();
    await u.click(await screen.findByRole("radio", { name: "From the previous visit" }));
    await saveWhenReady(u);
    const bar = await screen.findByRole("alert");
    expect(bar).toHaveTextContent("Invalid field data: The study already has a studyplan");
  });

  it("says when someone else saved the plan meanwhile, and Reload reads their version", async () => {
    const u = userEvent.setup();
    let theirs = false;
    stubApi((call: Call) => {
      if (call.path === `/api/studies/${studyUuid}/visits`)
        return { data: { items: visits, pagination: { page: 1, pageSize: 100, total: 3 } } };
      if (call.path === `/api/studyplans/${planUuid}` && call.method === "PUT") {
        theirs = true;
        return {
          status: 409,
          errorMessage: "This studyplan was changed by someone else since you opened it.",
        };
      }
      if (call.path === `/api/studyplans/${planUuid}`)
        return { data: theirs ? { ...plan, version: 3, calculationMode: "previous" } : plan };
    });
    open();
    await u.click(await screen.findByRole("radio", { name: "From the previous visit" }));
    await saveWhenReady(u);
    expect(await screen.findByText("Someone else changed this record since you opened it.")).toBeVisible();
    await u.click(screen.getByRole("button", { name: "Reload" }));
    await waitFor(() =>
      expect(
        screen.queryByText("Someone else changed this record since you opened it."),
      ).not.toBeInTheDocument(),
    );
    // Their version is on screen, with nothing left unsaved.
    expect(screen.getByRole("radio", { name: "From the previous visit" })).toBeChecked();
    expect(screen.queryByRole("button", { name: "Reset" })).not.toBeInTheDocument();
  });

  it("lists the plan's mandatory visits against the study's, so the status is plain", async () => {
    server();
    renderRoutes([{ path: "/studyplans", element: <List /> }], ["/studyplans"]);
    const row = (await screen.findByText("TD-2025-001_NORMAL")).closest("tr") as HTMLElement;
    expect(row).toHaveTextContent("Studyplan: 3 visits");
    expect(row).toHaveTextContent("Mandatory: 2 of 3 planned");
    expect(row).toHaveTextContent("Incomplete");
  });
});

describe("studyplans: study setup is the administrators' (issue 46, point 3)", () => {
  const question =
    "This change moves the windows of 12 recorded visits (3 become out of window). Save anyway?";
  const conflictText = "Someone else changed this record since you opened it.";

  /**
   * The server as the administrator meets it: a save of the plan without confirmWindowChanges is
   * asked about (409, the flag named in the detail, as the server words it); a confirmed one saves.
   */
  function askingServer() {
    const answer = signedInAs(defaultUser, answers());
    return stubFetch(async (call) => {
      if (call.path === "/config.json") return new Response("{}", { status: 200 });
      const put = call.path === `/api/studyplans/${planUuid}` && call.method === "PUT";
      if (put && (call.body as { confirmWindowChanges?: boolean }).confirmWindowChanges !== true) {
        const refused = await envelopeResponse({ status: 409, errorMessage: question }).json();
        refused.header.errorDetail = "Send confirmWindowChanges: true to save the studyplan all the same";
        return new Response(JSON.stringify(refused), {
          status: 409,
          headers: { "Content-Type": "application/json" },
        });
      }
      return envelopeResponse((await answer(call)) ?? { status: 404, errorMessage: "Not found" });
    });
  }

  it("asks before a save that changes recorded visits: No sends nothing more, Save anyway sends it confirmed", async () => {
    const u = userEvent.setup();
    const calls = askingServer();
    const puts = () => calls.filter((c) => c.method === "PUT");
    open();
    await u.click(await screen.findByRole("radio", { name: "From the previous visit" }));
    await saveWhenReady(u);
    const dialog = await screen.findByRole("dialog", { name: "Recorded visits change" });
    expect(dialog).toHaveTextContent(question);
    // A question, not a failure: neither "someone else changed it" nor an error bar.
    expect(screen.queryByText(conflictText)).not.toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(puts()).toHaveLength(1);
    expect(puts()[0].body).not.toHaveProperty("confirmWindowChanges");

    await u.click(within(dialog).getByRole("button", { name: "No" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(puts()).toHaveLength(1);
    expect(screen.queryByText(conflictText)).not.toBeInTheDocument();
    // The change is still there to be saved.
    expect(screen.getByRole("radio", { name: "From the previous visit" })).toBeChecked();

    await saveWhenReady(u);
    const again = await screen.findByRole("dialog", { name: "Recorded visits change" });
    await u.click(within(again).getByRole("button", { name: "Save anyway" }));
    expect(await screen.findByText("Studyplan saved successfully")).toBeInTheDocument();
    expect(puts()).toHaveLength(3);
    expect(puts()[2].body).toMatchObject({
      calculationMode: "previous",
      version: 2,
      confirmWindowChanges: true,
    });
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Reset" })).not.toBeInTheDocument();
  });

  const coordinator: SignedInUser = { ...defaultUser, isAdmin: false, siteIds: [7], kind: "user" };

  it("shows staff the plan read-only: no Save, Reset or button that changes it, nothing dragged", async () => {
    const calls = stubApi(signedInAs(coordinator, answers()));
    open();
    await waitFor(() =>
      expect(screen.getByRole("region", { name: /^Studyplan visits/ })).toHaveTextContent("Week 3"),
    );
    expect(screen.getByText("Only administrators can change these records.")).toBeVisible();
    expect(screen.queryByRole("button", { name: "Save" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Reset" })).not.toBeInTheDocument();
    expect(screen.getByRole("radio", { name: "From the previous visit" })).toBeDisabled();
    expect(screen.queryByRole("button", { name: /^(Move|Remove|Add) / })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: /^Schedule from Screening to Week 2:/ })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Drag Screening" })).toBeDisabled();
    expect(calls.filter((c) => c.method !== "GET")).toEqual([]);
  });

  it("lists the plans for staff without Edit, a row opening the plan's detail", async () => {
    const u = userEvent.setup();
    stubApi(signedInAs(coordinator, answers()));
    const { router } = renderRoutes(
      [
        { path: "/studyplans", element: <List /> },
        { path: "/studyplans/:studyplanUuid", element: <p>Plan detail</p> },
      ],
      ["/studyplans"],
    );
    const row = (await screen.findByText("TD-2025-001_NORMAL")).closest("tr") as HTMLElement;
    expect(within(row).queryByRole("link", { name: /^Edit / })).not.toBeInTheDocument();
    expect(within(row).getByRole("link", { name: /^View / })).toBeInTheDocument();
    await u.click(within(row).getByText("TD-2025-001"));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/studyplans/${planUuid}`));
  });
});

describe("studyplan editor: fee shares (issue 45)", () => {
  it("takes each visit's share of the patient fee, says when they do not add up to 100, and saves them", async () => {
    const u = userEvent.setup();
    const calls = server();
    open();
    const screening = await screen.findByRole("textbox", { name: "Fee share of Screening (%)" });
    expect(
      screen.getByText(/No fee shares: each mandatory visit earns an equal part of the patient fee/),
    ).toBeInTheDocument();
    await u.type(screening, "50");
    expect(screen.getByRole("alert")).toHaveTextContent(
      "The visits' fee shares must add up to 100 % (now 50 %)",
    );
    await u.type(screen.getByRole("textbox", { name: "Fee share of Week 3 (%)" }), "5x0");
    expect(screen.getByText(/Fee shares add up to 100 %/)).toBeInTheDocument();
    await saveWhenReady(u);
    await waitFor(() => expect(calls.some((c) => c.method === "PUT")).toBe(true));
    const body = calls.find((c) => c.method === "PUT")?.body as { schedule: { feeShare?: string | null }[] };
    expect(body.schedule.map((e) => e.feeShare ?? null)).toEqual(["50", null, "50"]);
  });
});
