/**
 * What the demo data fixes in advance and production code names (the start's sign-in hint, the
 * Visit summary tile's study), apart from the factories that build the demo so that the server does
 * not load them to read two constants. factories.ts re-exports them.
 */

/** The study the home page's Visit summary tile points at once the demo data has studies. */
export const demoStudyUuid = "std-00000000-0000-4000-8000-000000000001";
export const demoAdmin = {
  email: "admin@example.com",
  password: "admin1234",
  firstName: "Ada",
  lastName: "Admin",
};

/** The demo staff member (embedded demo only, like the admin): no administrator, the first demo site only. */
export const demoStaff = {
  email: "staff@example.com",
  password: "staff1234",
  firstName: "Sam",
  lastName: "Staff",
};
