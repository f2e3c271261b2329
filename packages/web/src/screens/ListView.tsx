import { resourceTitle } from "@trialdesk/domain";
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
import type { ReactNode } from "react";
import { Link, useNavigate } from "react-router";
import { useLookupRows } from "../api/queries";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/dialog";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { Pager } from "../ui/pager";
import { SearchableSelect, type SelectOption } from "../ui/select";
import { Spinner } from "../ui/spinner";
import { TableArea, Td, Th } from "../ui/table";
import type { ListDescription, ListFilter, Row } from "./list-description";
import type { ListController } from "./useListController";

/**
 * How a list screen looks: the title bar with search, Export CSV and Add, the filters, the table with
 * its sortable headings, per-row actions and loading, failed and empty states, the pager and the
 * Remove dialog. What it shows and what its controls do come from the controller.
 */
export function ListView<T extends Row>({
  description,
  controller,
}: {
  description: ListDescription<T>;
  controller: ListController<T>;
}) {
  const {
    resource,
    title = resourceTitle(description.resource, "list"),
    columns,
    rowId = "id",
    describe = (item: T) => String(item.name ?? ""),
  } = description;
  const {
    options,
    routeId,
    params,
    search,
    setSearch,
    list,
    forbidden,
    items,
    total,
    selected,
    setSelected,
    removing,
    confirmRemove,
    reasonDialog,
    exporting,
  } = controller;
  const { page, pageSize, order, direction, filters, sortBy } = params;
  const navigate = useNavigate();
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
              value={params.filterValue(filter.param)}
              onChange={(value) => params.setFilter(filter.param, value)}
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

      {list.data && <Pager page={page} pageSize={pageSize} total={total} onPage={params.setPage} />}

      <ConfirmDialog
        open={selected !== null}
        title="Remove item"
        text="Are you sure you want to remove the item?"
        cancelLabel="Cancel"
        confirmLabel="Yes"
        destructive
        busy={removing}
        onCancel={() => setSelected(null)}
        onConfirm={confirmRemove}
      >
        {selected && describe(selected)}
      </ConfirmDialog>
      {reasonDialog}
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
