import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  changeNeedsReason,
  type ListData,
  pageCount,
  resourceTitle,
  searchDebounceMs,
} from "@trialdesk/domain";
import {
  ArrowDown,
  ArrowUp,
  ArrowUpDown,
  Download,
  Eye,
  Pencil,
  Plus,
  RotateCw,
  Search,
  Trash2,
} from "lucide-react";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import { ApiError, api, type Query } from "../api/client";
import { invalidateResource, type LookupSource, queryKeys, useLookupRows } from "../api/queries";
import { getConfig } from "../app/config";
import { toast } from "../app/toast";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/dialog";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { Pager } from "../ui/pager";
import { SearchableSelect, type SelectOption } from "../ui/select";
import { Spinner } from "../ui/spinner";
import { TableArea, Td, Th } from "../ui/table";
import { useCanWrite } from "./navigation";
import { type ChangeHeaders, useReasonForChange } from "./reason-for-change";
import { type ParamChanges, useUrlParams } from "./url-params";

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

const positiveInt = (value: string | null, fallback: number) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

/**
 * The generic list screen of spec §2.2: title, Add, a table with per-row actions, paging, search and
 * sort kept in the URL, and the remove flow (dialog "Remove item", toast "Item deleted", reload).
 */
export function ListScreen<T extends Row>({ description }: { description: ListDescription<T> }) {
  const {
    resource,
    title = resourceTitle(description.resource, "list"),
    columns,
    rowId = "id",
    routeId = "uuid",
    describe = (item: T) => String(item.name ?? ""),
  } = description;
  const canWrite = useCanWrite(description.resource);
  const allowed = { add: true, edit: true, view: true, remove: false, ...description.options };
  const options = {
    ...allowed,
    add: allowed.add && canWrite,
    edit: allowed.edit && canWrite,
    remove: allowed.remove && canWrite,
  };
  const navigate = useNavigate();
  const [params, updateParams] = useUrlParams();
  const page = positiveInt(params.get("page"), 1);
  const pageSize = positiveInt(params.get("pagesize"), description.pageSize ?? getConfig().defaultPageSize);
  const searchTerm = params.get("searchTerm") ?? "";
  const order = params.get("order") ?? "";
  const direction = params.get("direction") === "desc" ? "desc" : "asc";

  /** Changes some query parameters, keeping the others. Empty values leave the URL. */
  const update = (changes: ParamChanges, replace = false) => updateParams(changes, { replace });

  const filters = description.filters ?? [];
  const query: Query = {
    page,
    pagesize: pageSize,
    [description.searchParam ?? "searchTerm"]: searchTerm,
    order: order || undefined,
    direction: order ? direction : undefined,
    ...Object.fromEntries(filters.map((filter) => [filter.param, params.get(filter.param) ?? undefined])),
    ...description.query,
  };
  const list = useQuery({
    queryKey: queryKeys.list(resource, query),
    queryFn: () => api.get<ListData<T>>(resource, query),
    placeholderData: keepPreviousData,
  });

  // A page past the end (an old link, rows removed meanwhile) moves to the last page there is.
  const lastPage = list.data ? pageCount(list.data.pagination.total, pageSize) : 1;
  // biome-ignore lint/correctness/useExhaustiveDependencies: update only writes the URL
  useEffect(() => {
    if (list.data && !list.isPlaceholderData && page > lastPage)
      update({ page: lastPage > 1 ? lastPage : null }, true);
  }, [list.data, list.isPlaceholderData, page, lastPage]);

  useEffect(() => {
    if (list.error) toast({ title: `Can not load data: ${list.error.message}`, variant: "destructive" });
  }, [list.error]);
  // A list the user may not see (403) says so in the table, not "Loading failed".
  const forbidden = list.error instanceof ApiError && list.error.status === 403;

  // The search box: typed text is sent 300 ms after the last key, and starts again at page 1.
  const [search, setSearch] = useState(searchTerm);
  const lastSent = useRef(searchTerm);
  useEffect(() => {
    // Follow the URL when it changes from outside (back button, a link).
    if (searchTerm !== lastSent.current) {
      lastSent.current = searchTerm;
      setSearch(searchTerm);
    }
  }, [searchTerm]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new search text starts the timer
  useEffect(() => {
    if (search === lastSent.current) return;
    const timer = setTimeout(() => {
      lastSent.current = search;
      update({ searchTerm: search.trim() ? search : null, page: null }, true);
    }, searchDebounceMs);
    return () => clearTimeout(timer);
  }, [search]);

  const sortBy = (key: string) => {
    const nextDirection = order === key && direction === "asc" ? "desc" : "asc";
    update({ order: key, direction: nextDirection, page: null });
  };

  // The remove flow of spec §4: select, confirm, delete by uuid, toast, reload, close, clear.
  const [selected, setSelected] = useState<T | null>(null);
  const queryClient = useQueryClient();
  // Removing recorded clinical data says why (issue 46, point 1), asked once Yes is chosen.
  const reasons = useReasonForChange(resource, "Remove");
  const remove = useMutation({
    mutationFn: ({ item, headers }: { item: T; headers: ChangeHeaders }) =>
      api.delete<{ deleted: boolean }>(`${resource}/${item[routeId]}`, headers),
    onSuccess: async () => {
      toast({ title: "Item deleted", variant: "success" });
      // Reloads the current page (and whatever else shows the resource); if it was the last row of
      // the last page, the page moves back.
      await invalidateResource(queryClient, resource);
    },
    onError: (error) => toast({ title: `Can not delete item: ${error.message}`, variant: "destructive" }),
    onSettled: () => setSelected(null),
  });

  // Export CSV (issue 15): every row of the current search, filters and order, not just the page,
  // under the list's own column titles. The server streams it; the bearer token rules out a plain
  // link, so the answer is fetched and handed to the browser as a file.
  const { page: _page, pagesize: _pagesize, ...exportQuery } = query;
  const exporting = useMutation({
    mutationFn: () =>
      api.download(`${resource}/export`, {
        ...exportQuery,
        columns: JSON.stringify(columns.map((column) => [column.key, column.title])),
      }),
    onSuccess: ({ blob, filename }) => saveFile(blob, filename ?? `${resource}.csv`),
    onError: (error) => toast({ title: `Can not export: ${error.message}`, variant: "destructive" }),
  });

  const items = list.data?.items ?? [];
  const total = list.data?.pagination.total ?? 0;
  const hasActions = options.view || options.edit || options.remove || Boolean(description.rowActions);

  return (
    <section className="flex flex-col gap-3 rounded-lg border border-gray-200 bg-white p-4 shadow-sm">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-xl font-semibold text-gray-900">{title}</h1>
        <div className="flex flex-wrap items-center gap-2">
          {description.searchable !== false && (
            <div className="relative">
              <Search
                aria-hidden="true"
                className="pointer-events-none absolute top-1/2 left-2 size-4 -translate-y-1/2 text-gray-400"
              />
              <Input
                type="search"
                aria-label="Search"
                placeholder="Search"
                className="w-56 pl-8"
                value={search}
                onChange={(event) => setSearch(event.target.value)}
              />
            </div>
          )}
          {!forbidden && (
            <Button
              variant="secondary"
              onClick={() => exporting.mutate()}
              disabled={exporting.isPending}
              aria-busy={exporting.isPending}
            >
              {exporting.isPending ? <Spinner /> : <Download aria-hidden="true" className="size-4" />}
              Export CSV
            </Button>
          )}
          {options.add && (
            <Button onClick={() => navigate(`/${resource}/create`)}>
              <Plus aria-hidden="true" className="size-4" />
              Add
            </Button>
          )}
        </div>
      </header>

      {filters.length > 0 && (
        <fieldset className="flex flex-wrap items-end gap-3">
          <legend className="sr-only">Filters</legend>
          {filters.map((filter) => (
            <FilterChoice
              key={filter.param}
              filter={filter}
              value={params.get(filter.param)}
              // Another filter starts again at page 1.
              onChange={(value) => update({ [filter.param]: value, page: null })}
            />
          ))}
        </fieldset>
      )}

      {description.toolbar?.(list.data)}

      <TableArea label={title}>
        <thead>
          <tr>
            {columns.map((column) => (
              <Th
                key={column.key}
                className={column.className}
                aria-sort={
                  column.sortable && order === column.key
                    ? direction === "asc"
                      ? "ascending"
                      : "descending"
                    : undefined
                }
              >
                {column.sortable ? (
                  <button
                    type="button"
                    className="inline-flex items-center gap-1 hover:text-gray-900 focus-visible:outline-2 focus-visible:outline-blue-600"
                    onClick={() => sortBy(column.key)}
                  >
                    {column.title}
                    {order === column.key ? (
                      direction === "asc" ? (
                        <ArrowUp aria-hidden="true" className="size-3.5" />
                      ) : (
                        <ArrowDown aria-hidden="true" className="size-3.5" />
                      )
                    ) : (
                      <ArrowUpDown aria-hidden="true" className="size-3.5 text-gray-400" />
                    )}
                  </button>
                ) : (
                  column.title
                )}
              </Th>
            ))}
            {hasActions && (
              <Th className={`w-px text-right ${stickyActions}`}>
                <span className="sr-only">Actions</span>
              </Th>
            )}
          </tr>
        </thead>
        <tbody>
          {list.isPending ? (
            <tr>
              <Td colSpan={columns.length + 1} className="py-6 text-center">
                <Spinner label="Loading..." />
              </Td>
            </tr>
          ) : list.isError ? (
            // A failed load is not an empty list (issue 15): say so, and offer to try again.
            <tr>
              <Td colSpan={columns.length + 1} className="py-6 text-center">
                {forbidden ? (
                  <p role="alert" className="text-gray-700">
                    You do not have permission to see these records.
                  </p>
                ) : (
                  <div role="alert" className="flex flex-col items-center gap-2 text-red-800">
                    <p>Loading failed: {list.error.message}</p>
                    <Button
                      variant="secondary"
                      onClick={() => void list.refetch()}
                      disabled={list.isFetching}
                    >
                      <RotateCw aria-hidden="true" className="size-4" />
                      Retry
                    </Button>
                  </div>
                )}
              </Td>
            </tr>
          ) : items.length === 0 ? (
            <tr>
              <Td colSpan={columns.length + 1} className="py-6 text-center text-gray-500">
                No records found
              </Td>
            </tr>
          ) : (
            items.map((item) => {
              const name = describe(item);
              const target = `/${resource}/${item[routeId]}`;
              const viewTarget = description.viewRoute ? description.viewRoute(item) : target;
              const editTarget = description.editRoute?.(item) ?? `${target}/edit`;
              const rowRoute = description.rowClick?.(item);
              return (
                <tr
                  key={String(item[rowId])}
                  className={`group hover:bg-blue-50/50 ${rowRoute ? "cursor-pointer" : ""}`}
                  onClick={rowRoute ? () => navigate(rowRoute) : undefined}
                >
                  {columns.map((column) => (
                    <Td key={column.key} className={column.className}>
                      {column.format ? (
                        column.format(item)
                      ) : (
                        <PlainCell text={String(item[column.key] ?? "")} />
                      )}
                    </Td>
                  ))}
                  {hasActions && (
                    // Clicks on the actions must not also open the row.
                    <Td
                      className={`text-right whitespace-nowrap ${stickyActions} bg-white ${stickyActionsHover}`}
                      onClick={(event) => event.stopPropagation()}
                    >
                      <span className="inline-flex items-center gap-1">
                        {description.rowActions?.(item)}
                        {options.view && viewTarget && (
                          <RowAction to={viewTarget} label={`View ${name}`} title="View">
                            <Eye aria-hidden="true" className="size-4" />
                          </RowAction>
                        )}
                        {options.edit &&
                          (description.onEdit ? (
                            <RowAction
                              onClick={() => description.onEdit?.(item)}
                              label={`Edit ${name}`}
                              title="Edit"
                            >
                              <Pencil aria-hidden="true" className="size-4" />
                            </RowAction>
                          ) : (
                            <RowAction to={editTarget} label={`Edit ${name}`} title="Edit">
                              <Pencil aria-hidden="true" className="size-4" />
                            </RowAction>
                          ))}
                        {options.remove && (
                          <RowAction
                            onClick={() => setSelected(item)}
                            label={`Remove ${name}`}
                            title="Remove"
                            danger
                          >
                            <Trash2 aria-hidden="true" className="size-4" />
                          </RowAction>
                        )}
                      </span>
                    </Td>
                  )}
                </tr>
              );
            })
          )}
        </tbody>
      </TableArea>

      {list.data && (
        <Pager page={page} pageSize={pageSize} total={total} onPage={(p) => update({ page: p })} />
      )}

      <ConfirmDialog
        open={selected !== null}
        title="Remove item"
        text="Are you sure you want to remove the item?"
        cancelLabel="Cancel"
        confirmLabel="Yes"
        destructive
        busy={remove.isPending}
        onCancel={() => setSelected(null)}
        onConfirm={async () => {
          if (!selected) return;
          const item = selected;
          if (changeNeedsReason(resource, item)) setSelected(null);
          const headers = await reasons.headersFor(item);
          if (headers) remove.mutate({ item, headers });
        }}
      >
        {selected && describe(selected)}
      </ConfirmDialog>
      {reasons.dialog}
    </section>
  );
}

/** The "All" choice of a filter: the parameter leaves the URL. */
const allChoice = "*";

function FilterChoice({
  filter,
  value,
  onChange,
}: {
  filter: ListFilter;
  value: string | null;
  onChange: (value: string | null) => void;
}) {
  const { lookup } = filter;
  const looked = useLookupRows<Row, SelectOption[]>(lookup ?? { resource: "" }, {
    enabled: Boolean(lookup),
    select: (rows) => rows.map((row) => (lookup as NonNullable<typeof lookup>).option(row)),
  });
  const options = [{ value: allChoice, label: "All" }, ...(filter.options ?? looked.data ?? [])];
  return (
    <Field id={`filter-${filter.param}`} label={filter.label} className="w-52">
      {(control) => (
        <SearchableSelect
          {...control}
          options={options}
          loading={Boolean(lookup) && looked.isPending}
          value={value ?? allChoice}
          onChange={(next) => onChange(next === allChoice ? null : String(next))}
        />
      )}
    </Field>
  );
}

/** Hands a fetched file to the browser's downloads through a temporary link. */
export function saveFile(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once it starts; the URL only has to outlive the click.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * A value as it is stored. One word — a date, a barcode, a code, a working name — is never broken
 * at its hyphens ("2027-01-" over "11"); text of several words wraps at its spaces.
 */
function PlainCell({ text }: { text: string }) {
  return /\s/.test(text) ? text : <span className="whitespace-nowrap">{text}</span>;
}

/**
 * The row actions stay at the right edge of the table's area when its columns are wider than the
 * screen (the worklist at 1280 px): a person should not scroll sideways to find Record visit or Edit.
 * The cell is opaque so the columns scroll under it; on hover it takes the row's tint mixed onto
 * white, the colour the row's half-transparent tint shows.
 */
const stickyActions = "sticky right-0";
const stickyActionsHover = "group-hover:bg-[color-mix(in_oklab,var(--color-blue-50)_50%,white)]";

const actionClass =
  "inline-flex size-7 items-center justify-center rounded-md focus-visible:outline-2 focus-visible:outline-blue-600";

/** A row action: a link for view and edit, a button otherwise; its accessible name says what it does. */
function RowAction({
  to,
  onClick,
  label,
  title,
  danger,
  children,
}: {
  to?: string;
  onClick?: () => void;
  label: string;
  title: string;
  danger?: boolean;
  children: ReactNode;
}) {
  const color = danger
    ? "text-red-700 hover:bg-red-50"
    : "text-gray-600 hover:bg-gray-100 hover:text-blue-700";
  return to ? (
    <Link to={to} aria-label={label} title={title} className={`${actionClass} ${color}`}>
      {children}
    </Link>
  ) : (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      title={title}
      className={`${actionClass} ${color}`}
    >
      {children}
    </button>
  );
}
