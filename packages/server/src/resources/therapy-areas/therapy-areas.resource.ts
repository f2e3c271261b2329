import { eq } from "drizzle-orm";
import { idParam } from "../params";
import { defineResource } from "../resource";
import { therapyCategories } from "../therapy-categories/therapy-categories.table";
import { therapyAreas } from "./therapy-areas.table";

export const therapyAreasResource = defineResource({
  name: "therapy-areas",
  table: therapyAreas,
  sort: {
    id: therapyAreas.id,
    name: therapyAreas.name,
    code: therapyAreas.code,
    therapyCategoryName: therapyCategories.name,
  },
  // Staff look areas up by their category too.
  search: [therapyAreas.name, therapyAreas.code, therapyCategories.name],
  filters: {
    therapyCategoryId: {
      schema: idParam(),
      where: (id: number) => eq(therapyAreas.therapyCategoryId, id),
    },
  },
  formats: {
    view: {
      fields: {
        id: therapyAreas.id,
        uuid: therapyAreas.uuid,
        version: therapyAreas.version,
        name: therapyAreas.name,
        code: therapyAreas.code,
        therapyCategoryId: therapyAreas.therapyCategoryId,
        therapyCategoryName: therapyCategories.name,
      },
      joins: (query) =>
        query.innerJoin(therapyCategories, eq(therapyCategories.id, therapyAreas.therapyCategoryId)),
    },
  },
});
