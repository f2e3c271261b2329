import {
  type Announcements,
  type CollisionDetection,
  closestCenter,
  DndContext,
  type DragEndEvent,
  type DragOverEvent,
  DragOverlay,
  type KeyboardCoordinateGetter,
  KeyboardSensor,
  PointerSensor,
  rectIntersection,
  type UniqueIdentifier,
  useDroppable,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import { arrayMove, SortableContext, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  availableVisits,
  type CalculationMode,
  calculationModeLabels,
  calculationModes,
  decreasingDays,
  dragKeyboardStepPx,
  dropAnimationMs,
  emptyStudyplan,
  type ListData,
  lookupPageSizes,
  newUuid,
  randomisationVisitType,
  rebuildSchedule,
  type ScheduleEntry,
  type Study,
  type StudyplanInput,
  type StudyplanListRow,
  type StudyVisitRow,
  scheduleFromPlan,
  visitTypes,
} from "@trialdesk/domain";
import { ArrowDown, ArrowLeft, ArrowUp, GripVertical, Minus, Plus, RotateCcw, Save } from "lucide-react";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import { useNavigate } from "react-router";
import { ApiError, api } from "../../api/client";
import { queryKeys, useLookupRows } from "../../api/queries";
import { toast } from "../../app/toast";
import { saveErrorText, useEditor } from "../../screens/useEditor";
import { useFormState } from "../../screens/useFormState";
import { Badge } from "../../ui/badge";
import { Button } from "../../ui/button";
import { Banner, Panel } from "../../ui/panel";
import { LoadingOverlay } from "../../ui/spinner";
import { ScheduleRow } from "./schedule-row";

/** The plan as the editor keeps and sends it (spec §3 Studyplan). */
export type PlanForm = Omit<Partial<StudyplanInput>, "schedule"> & { schedule: ScheduleEntry[] };
/** GET studyplans/{uuid}: the plan with its study's uuid and working name. */
export type PlanRecord = PlanForm & { id: number; uuid: string; studyName: string; studyUuid: string };
type StudyVisit = StudyVisitRow & { visitType?: string };

type Pane = "used" | "available";
const paneTitles: Record<Pane, string> = { used: "Studyplan visits", available: "Available visits" };
const isPane = (id: UniqueIdentifier): id is Pane => id === "used" || id === "available";

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

/** Arrow keys move a lifted card by the spec's 25 px (§9). */
const coordinateGetter: KeyboardCoordinateGetter = (event, { currentCoordinates: { x, y } }) => {
  const step = dragKeyboardStepPx;
  switch (event.code) {
    case "ArrowDown":
      return { x, y: y + step };
    case "ArrowUp":
      return { x, y: y - step };
    case "ArrowRight":
      return { x: x + step, y };
    case "ArrowLeft":
      return { x: x - step, y };
  }
  return undefined;
};

/**
 * The pane the dragged card overlaps most, then the nearest card in it (or the pane itself when it
 * is empty), so a card can be dropped into an empty pane and never onto a card of the pane it left.
 */
const collisionDetection: CollisionDetection = (args) => {
  const panes = args.droppableContainers.filter((c) => isPane(c.id));
  const [pane] = rectIntersection({ ...args, droppableContainers: panes });
  if (!pane) return [];
  const cards = args.droppableContainers.filter((c) => !isPane(c.id) && c.data.current?.pane === pane.id);
  return cards.length === 0 ? [pane] : closestCenter({ ...args, droppableContainers: cards });
};

/**
 * The studyplan editor (spec §2.5, §4): the study's visits in two panes, Studyplan visits (ordered,
 * numbered, with the schedule rows between them) and Available visits, moved by pointer, keyboard
 * or buttons; after any change the schedule is rebuilt by the domain's rule.
 */
export function StudyplanEditor({
  studyUuid,
  studyplanUuid,
}: {
  studyUuid?: string;
  studyplanUuid?: string;
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
    queryKey: ["studyplans", "of", studyUuid, studyName],
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
    uuid: newUuid("studyplans"),
  }));
  const { setLoaded } = form;
  useEffect(() => {
    if (plan.data) setLoaded(editable(plan.data));
  }, [plan.data, setLoaded]);

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
      if (error instanceof ApiError && error.isConflict && !isNew) return;
      toast({ title: "Error during save", description: saveErrorText(error), variant: "destructive" });
    },
  });
  const save = () => {
    if (ready && !saving) void send(editable(form.formData));
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
      <header className="flex flex-wrap items-center justify-between gap-3 border-b border-gray-200 px-4 py-3">
        <h1 id="plan-title" className="text-xl font-semibold text-gray-900">
          {title}
        </h1>
        <div className="flex items-center gap-2">
          <Button variant="secondary" onClick={() => navigate("/studyplans")}>
            <ArrowLeft aria-hidden="true" className="size-4" />
            Back
          </Button>
          {form.unsaved && (
            <Button variant="secondary" onClick={reset}>
              <RotateCcw aria-hidden="true" className="size-4" />
              Reset
            </Button>
          )}
          <Button onClick={save} disabled={!ready || saving}>
            <Save aria-hidden="true" className="size-4" />
            Save
          </Button>
        </div>
      </header>

      {conflictBanner}
      {/* Why the last save failed, with the server's field messages (e.g. "The study already has a studyplan"). */}
      {saveError && (
        <Banner role="alert" tone="error" className="mx-4 mt-3">
          {saveError.text}
        </Banner>
      )}

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
                  <VisitCard visit={visit} number={index + 1} pane="used">
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
                  <VisitCard visit={visit} number={index + 1} pane="available">
                    <IconButton label={`Add ${visit.name} to plan`} onClick={() => move(id, "used")}>
                      <Plus className="size-4" />
                    </IconButton>
                  </VisitCard>
                </li>
              );
            })}
          </PaneBox>
        </div>
        <DragOverlay dropAnimation={{ duration: dropAnimationMs, easing: "ease" }}>
          {activeVisit && (
            <CardBody visit={activeVisit} number={null} className="shadow-lg ring-2 ring-blue-500" />
          )}
        </DragOverlay>
      </DndContext>

      <LoadingOverlay show={loading} />
      {guard.dialog}
    </Panel>
  );
}

/**
 * How the schedule's days count (issue 12): from the first visit or from the previous one. A "From
 * the first visit" plan whose days go down was most likely typed as intervals: warn, never block.
 */
function CalculationChoice({
  value,
  onChange,
  decreasing,
}: {
  value: CalculationMode;
  onChange: (mode: CalculationMode) => void;
  decreasing: boolean;
}) {
  return (
    <div className="flex flex-col gap-2 border-b border-gray-200 px-4 py-3">
      <fieldset className="flex flex-wrap items-center gap-x-5 gap-y-2">
        <legend className="float-left mr-4 text-sm font-medium text-gray-800">Calculation</legend>
        {calculationModes.map((mode) => (
          <label key={mode} className="inline-flex items-center gap-2 text-sm text-gray-800">
            <input
              type="radio"
              name="calculationMode"
              value={mode}
              checked={value === mode}
              onChange={() => onChange(mode)}
              className="size-4 accent-blue-700"
            />
            {calculationModeLabels[mode]}
          </label>
        ))}
      </fieldset>
      {decreasing && (
        <Banner role="status" tone="warning" className="w-fit">
          The days go down along this plan, but "From the first visit" counts every visit's days from the
          first visit. If they are days from the previous visit, choose "From the previous visit".
        </Banner>
      )}
    </div>
  );
}

/** One pane: a titled list that is also a drop target, so an empty pane takes cards too. */
function PaneBox({
  pane,
  ids,
  highlighted,
  children,
}: {
  pane: Pane;
  ids: number[];
  highlighted: boolean;
  children: ReactNode;
}) {
  const { setNodeRef } = useDroppable({ id: pane, data: { pane } });
  const titleId = `pane-${pane}`;
  const List = pane === "used" ? "ol" : "ul";
  return (
    <section
      ref={setNodeRef}
      aria-labelledby={titleId}
      className={`flex min-h-48 min-w-0 flex-col gap-2 rounded-lg border p-3 transition-colors ${highlighted ? "border-blue-400 bg-blue-50/60" : "border-gray-200 bg-gray-50"}`}
    >
      <h2 id={titleId} className="text-sm font-semibold text-gray-800">
        {paneTitles[pane]} <span className="font-normal text-gray-500">({ids.length})</span>
      </h2>
      {ids.length === 0 && (
        <p className="rounded-md border border-dashed border-gray-300 px-3 py-4 text-center text-sm text-gray-500">
          {pane === "used" ? "Drag visits here to plan them." : "Every visit is in the plan."}
        </p>
      )}
      <SortableContext id={pane} items={ids} strategy={verticalListSortingStrategy}>
        <List aria-labelledby={titleId} className="flex flex-col gap-1">
          {children}
        </List>
      </SortableContext>
    </section>
  );
}

const typeLabel = (visit: StudyVisit) =>
  `${visit.visitTypeId} ${visit.visitType ?? visitTypes.find((t) => t.value === visit.visitTypeId)?.label ?? ""}`;

/** A card's face: number, name, mandatory dot (red when mandatory) and the visit type badge. */
function CardBody({
  visit,
  number,
  handle,
  className = "",
  children,
}: {
  visit: StudyVisit;
  number: number | null;
  handle?: ReactNode;
  className?: string;
  children?: ReactNode;
}) {
  const mandatory = visit.mandatory === 1;
  return (
    <div
      // On a phone the badge and the buttons move to a second line rather than off the card (issue 15, bug 3).
      className={`flex flex-wrap items-center gap-2 rounded-md border border-gray-200 bg-white px-2 py-1.5 ${className}`}
    >
      {handle ?? <GripVertical aria-hidden="true" className="size-4 text-gray-400" />}
      {number !== null && (
        <span className="inline-flex size-6 shrink-0 items-center justify-center rounded-full bg-blue-100 text-xs font-semibold text-blue-800">
          {number}
        </span>
      )}
      <span className="min-w-24 flex-1 truncate text-sm font-medium text-gray-900">{visit.name}</span>
      <span
        role="img"
        aria-label={mandatory ? "Mandatory" : "Optional"}
        title={mandatory ? "Mandatory" : "Optional"}
        className={`size-2.5 shrink-0 rounded-full ${mandatory ? "bg-red-600" : "bg-gray-300"}`}
      />
      <Badge color={visit.visitTypeId === randomisationVisitType ? "amber" : "gray"}>
        {typeLabel(visit)}
      </Badge>
      {children && <span className="ml-auto flex shrink-0 items-center gap-1">{children}</span>}
    </div>
  );
}

/** A draggable card: the pointer drags the whole card, the keyboard its handle (Space, arrows, Space). */
function VisitCard({
  visit,
  number,
  pane,
  children,
}: {
  visit: StudyVisit;
  number: number;
  pane: Pane;
  children: ReactNode;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({
      id: visit.id,
      data: { pane },
    });
  return (
    <div
      ref={setNodeRef}
      style={{
        transform: transform ? `translate3d(${transform.x}px, ${transform.y}px, 0)` : undefined,
        transition,
      }}
      className={`touch-none ${isDragging ? "opacity-40" : ""}`}
      {...listeners}
    >
      <CardBody
        visit={visit}
        number={number}
        handle={
          <button
            ref={setActivatorNodeRef}
            type="button"
            {...attributes}
            aria-label={`Drag ${visit.name}`}
            className="cursor-grab rounded text-gray-400 hover:text-gray-700 focus-visible:outline-2 focus-visible:outline-blue-600"
          >
            <GripVertical aria-hidden="true" className="size-4" />
          </button>
        }
      >
        {children}
      </CardBody>
    </div>
  );
}

function IconButton({
  label,
  onClick,
  disabled,
  children,
}: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      disabled={disabled}
      onClick={onClick}
      className="inline-flex size-6 items-center justify-center rounded text-gray-600 hover:bg-gray-100 hover:text-blue-700 focus-visible:outline-2 focus-visible:outline-blue-600 disabled:opacity-30"
    >
      {children}
    </button>
  );
}
