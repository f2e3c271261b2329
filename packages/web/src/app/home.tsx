import { CalendarPlus, type LucideIcon, Table, UserPlus, Users } from "lucide-react";
import { Link } from "react-router";
import { getConfig } from "./config";

type Tile = { title: string; to: string; icon: LucideIcon };

/** The home page's four shortcut tiles (spec §1). */
export function HomePage() {
  const tiles: Tile[] = [
    { title: "New visit", to: "/patient-visits/create", icon: CalendarPlus },
    { title: "Add patient to study", to: "/study-patients/create", icon: Users },
    { title: "New Patient", to: "/patients/create", icon: UserPlus },
    { title: "Visit summary", to: `/visit-summary/${getConfig().summaryStudyUuid}`, icon: Table },
  ];
  return (
    <div className="mx-auto max-w-5xl">
      <h1 className="sr-only">Home</h1>
      <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {tiles.map(({ title, to, icon: Icon }) => (
          <li key={title}>
            <Link
              to={to}
              className="flex h-32 flex-col items-center justify-center gap-3 rounded-lg border border-gray-200 bg-white p-4 text-center font-medium text-gray-900 shadow-sm hover:border-blue-300 hover:bg-blue-50 hover:text-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
            >
              <Icon aria-hidden className="size-8 text-blue-700" />
              {title}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
