import type { ReactNode } from "react";
import type { Row } from "./ListScreen";

/** One labelled row of a record's detail, and how it shows the record's value (History shows changes with it). */
export type DetailRow<T extends Row = Row> = { label: string; value: (item: T) => ReactNode };
