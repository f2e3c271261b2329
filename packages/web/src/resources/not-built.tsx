/**
 * The page for a resource whose screens are not built yet: it names the screen and must never crash,
 * so every menu entry leads somewhere (issue 3, "Screens").
 */
export function NotBuiltScreen({ title }: { title: string }) {
  return (
    <section className="rounded-lg border border-gray-200 bg-white p-6 shadow-sm">
      <h1 className="mb-2 text-xl font-semibold text-gray-900">{title}</h1>
      <p className="text-sm text-gray-600">{title} — this screen is not built yet.</p>
    </section>
  );
}
