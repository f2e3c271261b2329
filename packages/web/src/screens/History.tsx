import { useQuery } from "@tanstack/react-query";
import {
  type HistoryChange,
  type HistoryEvent,
  historyLabels,
  historyReferences,
  historyRepeats,
  type ResourceName,
} from "@trialdesk/domain";
import { format as formatDate } from "date-fns";
import { type ReactNode, useMemo } from "react";
import { ApiError, api } from "../api/client";
import { queryKeys } from "../api/queries";
import { Panel } from "../ui/panel";
import { Spinner } from "../ui/spinner";
import type { DetailRow } from "./detail-row";
import type { Row } from "./ListScreen";

const actionNames: Record<HistoryEvent["action"], string> = {
  create: "Created",
  update: "Updated",
  delete: "Deleted",
};

/**
 * The record fields a detail row shows, found by giving its value function a record that notes
 * every field read ("details.croId" for p.details.croId). Rows only read fields, so this is how the
 * history borrows the detail screen's labels and value formats instead of keeping its own list.
 */
function fieldsShownBy(row: DetailRow): Set<string> {
  const read = new Set<string>();
  const probe = (path: string): unknown =>
    new Proxy(() => undefined, {
      get: (_target, key) => {
        if (typeof key === "symbol") return undefined;
        const next = path ? `${path}.${key}` : key;
        read.add(next);
        return probe(next);
      },
    });
  try {
    row.value(probe("") as Row);
  } catch {
    // A row that does more with a value than read it (String(), a lookup) stops here; the fields
    // it read before are known.
  }
  return read;
}

/** One side (old or new) of an event's changes as a record, nested parts nested, for a detail row. */
function sideRecord(changes: HistoryChange[], side: "old" | "new"): Row {
  const record: Record<string, unknown> = {};
  for (const change of changes) {
    const parts = change.field.split(".");
    let at = record;
    for (const part of parts.slice(0, -1)) {
      at[part] = at[part] ?? {};
      at = at[part] as Record<string, unknown>;
    }
    at[parts[parts.length - 1]] = change[side];
  }
  return record as Row;
}

/** Words for a stored key no detail row shows: "lastPasswordChangeDate" → "Last password change date". */
function words(field: string): string {
  const last = field.split(".").pop() ?? field;
  const spaced = last.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

const isoTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A value no detail row formats: Yes/No, a time as the history's own times, lists one by one. */
function plainValue(value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (typeof value === "string" && isoTime.test(value))
    return formatDate(new Date(value), "yyyy-MM-dd HH:mm");
  if (Array.isArray(value)) return value.length === 0 ? "—" : value.map(plainValue).join(", ");
  if (typeof value === "object")
    return Object.entries(value)
      .filter(([key, v]) => !["id", "uuid"].includes(key) && v !== null && v !== "")
      .map(([, v]) => plainValue(v))
      .join(" ");
  return String(value);
}

type FieldView = { label: string; row: DetailRow | null };

/**
 * How the history shows each changed field of a resource: through the detail row that shows this
 * field alone (besides view fields that only repeat it), with that row's label and way of showing
 * a value; for a reference, the row showing the referenced record's name (the name, else the
 * barcode a monitor's row shows). The domain's historyLabels name a field no row names in words; a
 * field no row shows alone gets words made of its key and plain values.
 */
function useFieldViews(resource: string, rows: DetailRow[]) {
  return useMemo(() => {
    const refs = historyReferences[resource as ResourceName] ?? {};
    const labels = historyLabels[resource as ResourceName] ?? {};
    const leftOut = new Set([
      ...Object.values(refs).flatMap((ref) => ref.shownAs),
      ...(historyRepeats[resource as ResourceName] ?? []),
    ]);
    const shown = rows.map((row) => ({ row, fields: fieldsShownBy(row) }));
    const related = (a: string, b: string) => a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);
    /** The row showing `first` and nothing but `keys` and left-out fields; the plainest wins. */
    const rowAlone = (first: string, keys: string[]) =>
      shown
        .filter(
          ({ fields }) =>
            fields.has(first) && [...fields].every((f) => [...keys, ...leftOut].some((k) => related(f, k))),
        )
        .sort((a, b) => a.fields.size - b.fields.size)[0]?.row ?? null;
    const views = new Map<string, FieldView>();
    return (field: string): FieldView => {
      const known = views.get(field);
      if (known) return known;
      const shownAs = refs[field]?.shownAs ?? [];
      const keys = [field, ...shownAs];
      const row = [...shownAs, field].reduce<DetailRow | null>(
        (found, f) => found ?? rowAlone(f, keys),
        null,
      );
      const view = { label: labels[field] ?? row?.label ?? words(field), row };
      views.set(field, view);
      return view;
    };
  }, [resource, rows]);
}

function ChangeLine({
  change,
  view,
  records,
}: {
  change: HistoryChange;
  view: FieldView;
  records: Record<"old" | "new", Row>;
}) {
  if (change.lines)
    return (
      <li>
        <span className="font-medium">{view.label}</span>:
        <ul className="ml-4 flex flex-col gap-0.5">
          {change.lines.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </li>
    );
  // The server names referenced records (oldText, newText); other values are shown as the detail
  // row shows them, given the event's values of that side (a visit type's code and its name).
  const named = "oldText" in change || "newText" in change;
  const value = (side: "old" | "new"): ReactNode => {
    if (named) return (side === "old" ? change.oldText : change.newText) ?? "—";
    const stored = change[side];
    if (!view.row || stored === null || stored === undefined) return plainValue(stored);
    try {
      return view.row.value(records[side]);
    } catch {
      return plainValue(stored);
    }
  };
  return (
    <li>
      <span className="font-medium">{view.label}</span>: {value("old")} → {value("new")}
    </li>
  );
}

/** An event's changes, one line each, but for view fields that only repeat another. */
function Changes({
  changes,
  viewOf,
  hidden,
}: {
  changes: HistoryChange[];
  viewOf: (field: string) => FieldView;
  hidden: string[];
}) {
  const records = { old: sideRecord(changes, "old"), new: sideRecord(changes, "new") };
  const listed = changes.filter((change) => !hidden.includes(change.field));
  if (listed.length === 0) return null;
  return (
    <ul className="mt-1 flex flex-col gap-0.5 text-gray-700">
      {listed.map((change) => (
        <ChangeLine key={change.field} change={change} view={viewOf(change.field)} records={records} />
      ))}
    </ul>
  );
}

/**
 * The record's audit trail, newest first, in the detail screen's words: its rows' labels and value
 * formats, referenced records by name, a schedule change row by row, and the reason given for a
 * change. Hidden where the reader may not see it.
 */
export function History({ resource, uuid, rows }: { resource: string; uuid: string; rows: DetailRow[] }) {
  const history = useQuery({
    queryKey: queryKeys.history(resource, uuid),
    queryFn: () => api.get<{ items: HistoryEvent[] }>("audit", { resource, uuid }),
  });
  const viewOf = useFieldViews(resource, rows);
  const hidden = historyRepeats[resource as ResourceName] ?? [];
  const forbidden = history.error instanceof ApiError && [401, 403].includes(history.error.status);
  if (forbidden) return null;
  return (
    <Panel aria-labelledby="history-title">
      <h2
        id="history-title"
        className="border-b border-gray-200 px-4 py-3 text-base font-semibold text-gray-900"
      >
        History
      </h2>
      <div className="p-4 text-sm">
        {history.isPending ? (
          <Spinner label="Loading..." />
        ) : history.error ? (
          <p className="text-red-700">Can not load the history: {history.error.message}</p>
        ) : history.data.items.length === 0 ? (
          <p className="text-gray-600">No changes recorded.</p>
        ) : (
          <ol className="flex flex-col gap-3">
            {history.data.items.map((event) => (
              <li key={event.id} className="rounded-md border border-gray-100 bg-gray-50 px-3 py-2">
                <p className="text-gray-900">
                  <span className="font-medium">{actionNames[event.action]}</span> by{" "}
                  <span className="font-medium">{event.userName ?? "unknown user"}</span> on{" "}
                  <time dateTime={event.at}>{formatDate(new Date(event.at), "yyyy-MM-dd HH:mm:ss")}</time>
                </p>
                {event.reason && <p className="text-gray-700">Reason: {event.reason}</p>}
                <Changes changes={event.changes} viewOf={viewOf} hidden={hidden} />
              </li>
            ))}
          </ol>
        )}
      </div>
    </Panel>
  );
}
