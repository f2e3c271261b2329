import {
  type Announcements,
  DndContext,
  type DragEndEvent,
  type DragOverEvent,
  DragOverlay,
  KeyboardSensor,
  PointerSensor,
  type UniqueIdentifier,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import { arrayMove } from "@dnd-kit/sortable";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  availableVisits,
  decreasingDays,
  dropAnimationMs,
  emptyStudyplan,
  feeSharesProblem,
  type ListData,
  lookupPageSizes,
  rebuildSchedule,
  type ScheduleEntry,
  type Study,
  type StudyplanInput,
  type StudyplanListRow,
  scheduleFromPlan,
} from "@trialdesk/domain";
import { ArrowDown, ArrowUp, Minus, Plus, RotateCcw, Save } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { ApiError, api } from "../../api/client";
import { queryKeys, useLookupRows } from "../../api/queries";
import { toast } from "../../app/toast";
import { useCanWrite } from "../../screens/navigation";
import { saveErrorText, useEditor } from "../../screens/useEditor";
import { useFormState } from "../../screens/useFormState";
import { Button } from "../../ui/button";
import { ConfirmDialog } from "../../ui/dialog";
import { Banner, Panel, PanelHeader } from "../../ui/panel";
import { LoadingOverlay } from "../../ui/spinner";
import { CalculationChoice } from "./calculation-choice";
import { ScheduleRow } from "./schedule-row";
import {
  CardBody,
  IconButton,
  isPane,
  type Pane,
  PaneBox,
  paneTitles,
  type StudyVisit,
  VisitCard,
} from "./studyplan-cards";
import { collisionDetection, coordinateGetter } from "./studyplan-drag";

/** The plan as the editor keeps and sends it (spec §3 Studyplan). */
export type PlanForm = Omit<Partial<StudyplanInput>, "schedule"> & { schedule: ScheduleEntry[] };
/** GET studyplans/{uuid}: the plan with its study's uuid and working name. */
export type PlanRecord = PlanForm & { id: number; uuid: string; studyName: string; studyUuid: string };
/**
 * The input-only flag of a save that was asked about and confirmed (issue 46, point 3): the server's
 * 409 that asks names it in its detail, which tells the question apart from "someone else saved it".
 */
const confirmFlag = "confirmWindowChanges" satisfies keyof StudyplanInput;
const isWindowQuestion = (error: unknown): error is ApiError =>
  error instanceof ApiError && error.isConflict && error.detail.includes(confirmFlag);

/** The fields a save sends; the study's working name is only read. */
const editable = (plan: PlanForm): PlanForm => ({
  id: plan.id,
  uuid: plan.uuid,
  version: plan.version,
  studyId: plan.studyId,
  studyUuid: plan.studyUuid,
  calculationMode: plan.calculationMode,
  schedule: plan.schedule,
});

/**
 * The studyplan editor (spec §2.5, §4): the study's visits in two panes, Studyplan visits (ordered,
 * numbered, with the schedule rows between them) and Available visits, moved by pointer, keyboard
 * or buttons; after any change the schedule is rebuilt by the domain's rule.
 */
export function StudyplanEditor({
  studyUuid,
  studyplanUuid,
  newPlan,
}: {
  studyUuid?: string;
  studyplanUuid?: string;
  /** The uuid a new plan gets. */
  newPlan: string;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const plan = useQuery({
    queryKey: queryKeys.form("studyplans", studyplanUuid),
    queryFn: () => api.get<PlanRecord>(`studyplans/${studyplanUuid}`),
    enabled: Boolean(studyplanUuid),
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
  const studyKey = studyUuid ?? plan.data?.studyUuid;
  const study = useQuery({
    queryKey: queryKeys.detail("studies", studyUuid),
    queryFn: () => api.get<Study>(`studies/${studyUuid}`),
    enabled: Boolean(studyUuid),
  });
  const visits = useLookupRows<StudyVisit>(
    { resource: `studies/${studyKey}/visits`, pageSize: lookupPageSizes.visits },
    { enabled: Boolean(studyKey) },
  );
  // A study that has a plan already opens that plan, not an empty one (issue 15, bug 6): the list's
  // row of the study, found by its working name, names the plan.
  const studyName = studyUuid ? study.data?.workingName : undefined;
  const existing = useQuery({
    queryKey: queryKeys.studyplanOfStudy(studyUuid, studyName),
    queryFn: () =>
      api.get<ListData<StudyplanListRow>>("studyplans", { page: 1, pagesize: 100, searchTerm: studyName }),
    enabled: Boolean(studyName),
    select: (data) => data.items.find((row) => row.studyUuid === studyUuid)?.studyplanUuid ?? null,
  });
  useEffect(() => {
    if (existing.data) navigate(`/studyplans/${existing.data}/edit`, { replace: true });
  }, [existing.data, navigate]);

  const error = plan.error ?? study.error ?? visits.error;
  useEffect(() => {
    if (error) toast({ title: `Error loading studyplan: ${error.message}`, variant: "destructive" });
  }, [error]);

  // A new plan starts with every visit available and the study's uuid set (spec §4).
  const form = useFormState<PlanForm>(() => ({
    ...(emptyStudyplan(studyUuid) as PlanForm),
    uuid: newPlan,
  }));
  const { setFetched } = form;
  useEffect(() => {
    if (plan.data) setFetched(editable(plan.data));
  }, [plan.data, setFetched]);

  const studyVisits = visits.data ?? [];
  const byId = useMemo(() => new Map(studyVisits.map((v) => [v.id, v])), [studyVisits]);
  const used = scheduleFromPlan(form.formData.schedule).filter((id) => byId.has(id) || !visits.data);
  // The Available pane keeps the order the user gave it; visits new to it follow in the study's order.
  const [availableOrder, setAvailableOrder] = useState<number[]>([]);
  const unusedIds = availableVisits(studyVisits, used).map((v) => v.id);
  const available = [
    ...availableOrder.filter((id) => unusedIds.includes(id)),
    ...unusedIds.filter((id) => !availableOrder.includes(id)),
  ];

  const setUsed = (ids: number[]) => form.setPart("schedule", rebuildSchedule(ids, form.formData.schedule));
  const setStep = (index: number, settings: Partial<ScheduleEntry>) =>
    form.setPart(
      "schedule",
      form.formData.schedule.map((entry, i) => (i === index ? { ...entry, ...settings } : entry)),
    );

  /** Moves a visit to `pane` at `index` (the end when not given), from wherever it is. */
  const move = (visitId: number, pane: Pane, index?: number) => {
    const lists = {
      used: used.filter((id) => id !== visitId),
      available: available.filter((id) => id !== visitId),
    };
    const target = lists[pane];
    target.splice(index ?? target.length, 0, visitId);
    setAvailableOrder(lists.available);
    setUsed(lists.used);
  };

  const loading = plan.isFetching || study.isFetching || visits.isFetching;
  // Study setup is the administrators' (the registry's access, decision 226): others see the plan
  // read-only, without Save, Reset or the buttons that change it.
  const canWrite = useCanWrite("studyplans");
  // A save that would change what recorded visits are is asked about first by the server (409 with
  // how many, decision 227): the question, and the plan it was about, until it is answered.
  const [question, setQuestion] = useState<{ text: string; data: PlanForm } | null>(null);
  // The last save failed with that question, not with a conflict or an error of its own: the 409's
  // banners stay hidden until the next save.
  const [asked, setAsked] = useState(false);
  const sending = useRef<PlanForm | null>(null);
  // The generic form's save (field errors, the 409 banner, the guard); the saved plan's edit route next.
  const { ready, saving, send, saveError, conflictBanner, guard } = useEditor<PlanForm>({
    resource: "studyplans",
    form,
    loading,
    loaded: (!studyplanUuid || plan.isSuccess) && visits.isSuccess,
    reload: async () => (await plan.refetch()).data,
    toForm: editable,
    onSaved: (saved) => {
      toast({ title: "Studyplan saved successfully", variant: "success" });
      queryClient.setQueryData(queryKeys.form("studyplans", saved.uuid), saved);
      navigate(`/studyplans/${saved.uuid}/edit`, { replace: true });
    },
    onFailed: (error, isNew) => {
      if (isWindowQuestion(error) && sending.current) {
        setAsked(true);
        setQuestion({ text: error.message, data: sending.current });
        return;
      }
      if (error instanceof ApiError && error.isConflict && !isNew) return;
      toast({ title: "Error during save", description: saveErrorText(error), variant: "destructive" });
    },
  });
  const sendPlan = (data: PlanForm) => {
    sending.current = data;
    setAsked(false);
    void send(data);
  };
  const save = () => {
    if (ready && !saving && canWrite) sendPlan(editable(form.formData));
  };
  const reset = () => {
    form.reset();
    setAvailableOrder([]);
  };

  // Dragging: the pane under the dragged card is highlighted; the drop decides the move.
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter }),
  );
  const [activeId, setActiveId] = useState<number | null>(null);
  const [overPane, setOverPane] = useState<Pane | null>(null);
  const paneOf = (id: UniqueIdentifier | undefined): Pane | null =>
    id === undefined ? null : isPane(id) ? id : used.includes(Number(id)) ? "used" : "available";
  const onDragOver = ({ over }: DragOverEvent) => setOverPane(paneOf(over?.id));
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    setActiveId(null);
    setOverPane(null);
    if (!over || active.id === over.id) return;
    const visitId = Number(active.id);
    const from = paneOf(active.id) as Pane;
    const to = paneOf(over.id) as Pane;
    const list = to === "used" ? used : available;
    if (isPane(over.id)) return move(visitId, to);
    const overIndex = list.indexOf(Number(over.id));
    if (from === to) {
      const moved = arrayMove(list, list.indexOf(visitId), overIndex);
      return to === "used" ? setUsed(moved) : setAvailableOrder(moved);
    }
    // Into the other pane: before the card it is over, or after it when dropped on its lower half.
    const dragged = active.rect.current.translated;
    const below = dragged ? dragged.top + dragged.height / 2 > over.rect.top + over.rect.height / 2 : false;
    move(visitId, to, overIndex + (below ? 1 : 0));
  };

  const nameOf = (id: UniqueIdentifier | undefined) =>
    id === undefined ? "" : isPane(id) ? paneTitles[id] : (byId.get(Number(id))?.name ?? String(id));
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${nameOf(active.id)}.`,
    onDragOver: ({ active, over }) =>
      over ? `${nameOf(active.id)} is over ${nameOf(over.id)}.` : `${nameOf(active.id)} is over no pane.`,
    onDragEnd: ({ active, over }) =>
      over ? `${nameOf(active.id)} was dropped on ${nameOf(over.id)}.` : `${nameOf(active.id)} was dropped.`,
    onDragCancel: ({ active }) => `Moving ${nameOf(active.id)} was cancelled.`,
  };

  const title = plan.data?.studyName ?? study.data?.workingName ?? "Studyplan";
  const activeVisit = activeId === null ? undefined : byId.get(activeId);

  return (
    <Panel className="relative" aria-labelledby="plan-title">
      <PanelHeader title={title} titleId="plan-title" onBack={() => navigate("/studyplans")}>
        {form.unsaved && canWrite && (
          <Button variant="secondary" onClick={reset}>
            <RotateCcw aria-hidden="true" className="size-4" />
            Reset
          </Button>
        )}
        {canWrite && (
          <Button onClick={save} disabled={!ready || saving}>
            <Save aria-hidden="true" className="size-4" />
            Save
          </Button>
        )}
      </PanelHeader>

      {!canWrite && (
        <Banner role="note" tone="note" className="mx-4 mt-3">
          Only administrators can change these records.
        </Banner>
      )}
      {!asked && conflictBanner}
      {/* Why the last save failed, with the server's field messages (e.g. "The study already has a studyplan"). */}
      {saveError && !asked && (
        <Banner role="alert" tone="error" className="mx-4 mt-3">
          {saveError.text}
        </Banner>
      )}

      {/* Read-only for those who may not save it: every control inside is disabled. */}
      <fieldset disabled={!canWrite} className="min-w-0">
        <CalculationChoice
          value={form.formData.calculationMode ?? "default"}
          onChange={(mode) => form.setPart("calculationMode", mode)}
          decreasing={decreasingDays({
            calculationMode: form.formData.calculationMode ?? "default",
            schedule: form.formData.schedule,
          })}
        />

        <DndContext
          sensors={sensors}
          collisionDetection={collisionDetection}
          accessibility={{ announcements }}
          onDragStart={({ active }) => setActiveId(Number(active.id))}
          onDragOver={onDragOver}
          onDragEnd={onDragEnd}
          onDragCancel={() => {
            setActiveId(null);
            setOverPane(null);
          }}
        >
          <div className="grid gap-4 p-4 md:grid-cols-2">
            <PaneBox pane="used" ids={used} highlighted={overPane === "used" && activeId !== null}>
              {used.map((id, index) => {
                const visit = byId.get(id);
                if (!visit) return null;
                const entry = form.formData.schedule[index];
                const next = byId.get(used[index + 1]);
                return (
                  <li key={id}>
                    <VisitCard visit={visit} number={index + 1} pane="used" disabled={!canWrite}>
                      <FeeShare
                        visitName={visit.name}
                        share={entry?.feeShare ?? null}
                        onChange={(feeShare) => setStep(index, { feeShare })}
                      />
                      {canWrite && (
                        <>
                          <IconButton
                            label={`Move ${visit.name} up`}
                            disabled={index === 0}
                            onClick={() => setUsed(arrayMove(used, index, index - 1))}
                          >
                            <ArrowUp className="size-4" />
                          </IconButton>
                          <IconButton
                            label={`Move ${visit.name} down`}
                            disabled={index === used.length - 1}
                            onClick={() => setUsed(arrayMove(used, index, index + 1))}
                          >
                            <ArrowDown className="size-4" />
                          </IconButton>
                          <IconButton
                            label={`Remove ${visit.name} from plan`}
                            onClick={() => move(id, "available", 0)}
                          >
                            <Minus className="size-4" />
                          </IconButton>
                        </>
                      )}
                    </VisitCard>
                    {next && entry && (
                      <ScheduleRow
                        key={`${id}-${next.id}`}
                        entry={entry}
                        from={visit.name}
                        to={next.name}
                        disabled={activeId !== null}
                        onSave={(settings) => setStep(index, settings)}
                      />
                    )}
                  </li>
                );
              })}
            </PaneBox>
            <PaneBox
              pane="available"
              ids={available}
              highlighted={overPane === "available" && activeId !== null}
            >
              {available.map((id, index) => {
                const visit = byId.get(id);
                if (!visit) return null;
                return (
                  <li key={id}>
                    <VisitCard visit={visit} number={index + 1} pane="available" disabled={!canWrite}>
                      {canWrite && (
                        <IconButton label={`Add ${visit.name} to plan`} onClick={() => move(id, "used")}>
                          <Plus className="size-4" />
                        </IconButton>
                      )}
                    </VisitCard>
                  </li>
                );
              })}
            </PaneBox>
          </div>
          <FeeSharesNote schedule={form.formData.schedule} />
          <DragOverlay dropAnimation={{ duration: dropAnimationMs, easing: "ease" }}>
            {activeVisit && (
              <CardBody visit={activeVisit} number={null} className="shadow-lg ring-2 ring-blue-500" />
            )}
          </DragOverlay>
        </DndContext>
      </fieldset>

      <LoadingOverlay show={loading} />
      {guard.dialog}
      {/* The server's question (decision 227): Save anyway sends the same plan confirmed; No sends nothing. */}
      <ConfirmDialog
        open={question !== null}
        title="Recorded visits change"
        text={question?.text ?? ""}
        confirmLabel="Save anyway"
        cancelLabel="No"
        busy={saving}
        onCancel={() => setQuestion(null)}
        onConfirm={() => {
          const data = question?.data;
          setQuestion(null);
          if (data) sendPlan({ ...data, [confirmFlag]: true });
        }}
      />
    </Panel>
  );
}

/**
 * A visit's own share of the patient fee, in percent (issue 45): empty means none. Once any visit has
 * one, the shares add up to 100 and a visit without one earns nothing (docs/finance.md).
 */
function FeeShare({
  visitName,
  share,
  onChange,
}: {
  visitName: string;
  share: string | null;
  onChange: (share: string | null) => void;
}) {
  return (
    <span className="inline-flex items-center gap-0.5 text-xs text-gray-600">
      <input
        aria-label={`Fee share of ${visitName} (%)`}
        title="Share of the patient fee, in percent"
        inputMode="decimal"
        autoComplete="off"
        maxLength={6}
        placeholder="—"
        value={share ?? ""}
        onChange={(event) => onChange(event.target.value.replace(/[^\d.]/g, "") || null)}
        // Keys typed here are the share's, not the card's drag keys.
        onKeyDown={(event) => event.stopPropagation()}
        onPointerDown={(event) => event.stopPropagation()}
        className="w-14 rounded border border-gray-300 px-1 py-0.5 text-right text-xs tabular-nums focus-visible:outline-2 focus-visible:outline-blue-600 disabled:bg-gray-50"
      />
      %
    </span>
  );
}

/** How the plan shares the patient fee: equally over the mandatory visits, or by the shares given. */
function FeeSharesNote({ schedule }: { schedule: ScheduleEntry[] }) {
  const problem = feeSharesProblem(schedule);
  const given = schedule.some((entry) => entry.feeShare);
  return (
    <p
      role={problem ? "alert" : "note"}
      className={`px-4 pb-3 text-sm ${problem ? "text-red-700" : "text-gray-600"}`}
    >
      {problem ??
        (given
          ? "Fee shares add up to 100 %: each visit with a share earns it of the patient fee; the others earn nothing."
          : "No fee shares: each mandatory visit earns an equal part of the patient fee. Give every paid visit a share in percent to change that.")}
    </p>
  );
}
