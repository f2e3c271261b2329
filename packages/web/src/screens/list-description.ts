import type { ListData } from "@trialdesk/domain";
import type { ReactNode } from "react";
import type { Query } from "../api/client";
import type { LookupSource } from "../api/queries";
import type { SelectOption } from "../ui/select";

// biome-ignore lint/suspicious/noExplicitAny: list rows are whatever the resource's list call answers
export type Row = Record<string, any>;

export type Column<T extends Row = Row> = {
  /** The item's field; also the `order` value sent when the column is sortable. */
  key: string;
  title: string;
  format?: (item: T) => ReactNode;
  className?: string;
  sortable?: boolean;
};

/**
 * A choice above the table that narrows the list (e.g. a deviation's status): kept in the URL under
 * `param` with the search and page, and sent as that query parameter. "All" leaves it out.
 */
export type ListFilter = {
  param: string;
  label: string;
  options?: SelectOption[];
  /** The choices read from another resource's list instead (e.g. the studies). */
  lookup?: LookupSource & { option: (row: Row) => SelectOption };
};

export type ListDescription<T extends Row = Row> = {
  /** The API and route name; the domain's registry says who may change its records. */
  resource: string;
  /** The heading, when it is not the registry's plural (e.g. Worklist). */
  title?: string;
  columns: Column<T>[];
  /** The row identifier field (spec §2.2), default "id". */
  rowId?: string;
  /** The field the view and edit routes use, default "uuid". */
  routeId?: string;
  /** Default page size; the configured default when not given. */
  pageSize?: number;
  /** Which actions the list allows: add, edit and view by default, remove not. */
  options?: { add?: boolean; edit?: boolean; view?: boolean; remove?: boolean };
  /** Replaces the edit route, e.g. to open another screen. */
  onEdit?: (item: T) => void;
  /** Per-row routes of the edit and view actions when they are not /{resource}/{routeId}[/edit]; a
   * view route of null hides the view action on that row (e.g. a study without a studyplan). */
  editRoute?: (item: T) => string;
  viewRoute?: (item: T) => string | null;
  /** A route to open when a row is clicked. */
  rowClick?: (item: T) => string;
  /** The text naming an item in the Remove dialog and the action labels; default its name. */
  describe?: (item: T) => string;
  /** Extra query parameters and filters sent with every list call. */
  query?: Query;
  /** The search box, on unless a list's API has no search. */
  searchable?: boolean;
  /** The query parameter the search text is sent as, default "searchTerm" (the URL keeps searchTerm). */
  searchParam?: string;
  /** Filters shown above the table. */
  filters?: ListFilter[];
  /** Shown between the title bar and the table, with the last answer (e.g. filter chips with counts). */
  toolbar?: (answer: ListData<T> | undefined) => ReactNode;
  /** Actions of a row beyond view, edit and remove (e.g. a worklist's Record visit). */
  rowActions?: (item: T) => ReactNode;
};
