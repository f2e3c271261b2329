/** The editor's panes and visit cards (spec §2.5 Studyplan editor). */
import { type UniqueIdentifier, useDroppable } from "@dnd-kit/core";
import { SortableContext, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { randomisationVisitType, type StudyVisitRow, visitTypes } from "@trialdesk/domain";
import { GripVertical } from "lucide-react";
import type { ReactNode } from "react";
import { Badge } from "../../ui/badge";

export type StudyVisit = StudyVisitRow & { visitType?: string };

export type Pane = "used" | "available";
export const paneTitles: Record<Pane, string> = { used: "Studyplan visits", available: "Available visits" };
export const isPane = (id: UniqueIdentifier): id is Pane => id === "used" || id === "available";

/** One pane: a titled list that is also a drop target, so an empty pane takes cards too. */
export function PaneBox({
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

export const typeLabel = (visit: StudyVisit) =>
  `${visit.visitTypeId} ${visit.visitType ?? visitTypes.find((t) => t.value === visit.visitTypeId)?.label ?? ""}`;

/** A card's face: number, name, mandatory dot (red when mandatory) and the visit type badge. */
export function CardBody({
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

/**
 * A draggable card: the pointer drags the whole card, the keyboard its handle (Space, arrows, Space).
 * A disabled one (a plan its reader may not save) is not dragged, and its handle is disabled.
 */
export function VisitCard({
  visit,
  number,
  pane,
  disabled = false,
  children,
}: {
  visit: StudyVisit;
  number: number;
  pane: Pane;
  disabled?: boolean;
  children: ReactNode;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({
      id: visit.id,
      data: { pane },
      disabled,
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
            disabled={disabled}
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

export function IconButton({
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
