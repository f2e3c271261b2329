import { useQuery } from "@tanstack/react-query";
import { resourceTitle } from "@trialdesk/domain";
import { Pencil } from "lucide-react";
import { type ReactNode, useEffect } from "react";
import { Link, useParams } from "react-router";
import { ApiError, api } from "../api/client";
import { queryKeys } from "../api/queries";
import { NotFoundPage } from "../app/not-found";
import { useSession } from "../app/session";
import { toast } from "../app/toast";
import { Panel, PanelHeader } from "../ui/panel";
import { Spinner } from "../ui/spinner";
import type { DetailRow } from "./detail-row";
import { History } from "./History";
import type { Row } from "./ListScreen";
import { useCanWrite, useGoBack } from "./navigation";

export type { DetailRow } from "./detail-row";

export type DetailDescription<T extends Row = Row> = {
  /** The API and route name; the domain's registry says who may change its records. */
  resource: string;
  /** The heading, when it is not the registry's label. */
  title?: string;
  /** The rows after Id and Uuid, which are always shown. */
  rows: DetailRow<T>[];
  /** How the Id and Uuid rows are titled ("ID", "UUID" on some screens). */
  idLabel?: string;
  uuidLabel?: string;
  /** The read format (spec §7: view unless told otherwise). */
  format?: string;
  /** The route parameter holding the record's uuid or id, default "itemId". */
  param?: string;
  /** Sections shown below the rows, before the History (e.g. a patient's deviations). */
  after?: (item: T) => ReactNode;
  /** Whether the record has an edit form to offer (Edit), default true; a query's detail has its own actions. */
  editable?: boolean;
  /** The screen's own actions in the title bar, after Edit (e.g. a query's Close query). */
  actions?: (item: T) => ReactNode;
};

/** A value as a detail row shows it: "—" for nothing (null, undefined or empty text). */
export const show = (value: unknown): string =>
  value === null || value === undefined || value === "" ? "—" : String(value);

/**
 * The generic detail screen of spec §2.4: label / value rows with Id and Uuid always, Back one step in
 * history, and the record's History from the audit trail (signed-in users only).
 */
export function DetailScreen<T extends Row>({ description }: { description: DetailDescription<T> }) {
  const {
    resource,
    title = resourceTitle(description.resource, "record"),
    rows,
    idLabel = "Id",
    uuidLabel = "Uuid",
    format = "view",
  } = description;
  const itemId = useParams()[description.param ?? "itemId"] ?? "";
  const { user } = useSession();

  const record = useQuery({
    queryKey: queryKeys.detail(resource, itemId, format),
    queryFn: () => api.get<T>(`${resource}/${itemId}`, { format }),
  });
  // Another site's record, or one that is gone, answers 404: shown as not found.
  const notFound = record.error instanceof ApiError && record.error.status === 404;
  useEffect(() => {
    if (record.error && !notFound)
      toast({ title: `Can not display data: ${record.error.message}`, variant: "destructive" });
  }, [record.error, notFound]);

  const item = record.data;
  const goBack = useGoBack(user ? `/${resource}` : "/");
  const canWrite = useCanWrite(description.resource);
  if (notFound) return <NotFoundPage title={`${title} not found`} />;

  return (
    <div className="flex flex-col gap-4">
      <Panel>
        <PanelHeader title={title} onBack={goBack}>
          {canWrite && item && description.editable !== false && (
            <Link
              to={`/${resource}/${item.uuid}/edit`}
              className="inline-flex items-center gap-1.5 rounded-md bg-blue-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
            >
              <Pencil aria-hidden="true" className="size-4" />
              Edit
            </Link>
          )}
          {item && description.actions?.(item)}
        </PanelHeader>
        <div className="p-4">
          {record.isPending ? (
            <Spinner label="Loading..." />
          ) : item ? (
            <dl className="grid grid-cols-[minmax(8rem,max-content)_1fr] gap-x-6 gap-y-2 text-sm">
              {[
                { label: idLabel, value: (i: T) => show(i.id) },
                { label: uuidLabel, value: (i: T) => show(i.uuid) },
                ...rows,
              ].map((row) => (
                <div key={row.label} className="contents">
                  <dt className="font-medium text-gray-600">{row.label}</dt>
                  <dd className="break-all text-gray-900">{row.value(item)}</dd>
                </div>
              ))}
            </dl>
          ) : (
            <p className="text-sm text-gray-600">The record could not be shown.</p>
          )}
        </div>
      </Panel>
      {item && description.after?.(item)}
      {/* Only the signed-in see the audit trail; a public page asks nothing of it. */}
      {item && user && <History resource={resource} uuid={String(item.uuid)} rows={rows as DetailRow[]} />}
    </div>
  );
}
