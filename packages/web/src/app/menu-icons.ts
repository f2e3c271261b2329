/**
 * The icons the server's menu names, the only ones bundled (importing every lucide icon would cost
 * hundreds of KB); menu.tsx looks them up by name.
 */
export {
  BadgeCheck,
  BookOpen,
  Building2,
  CalendarCheck,
  CalendarDays,
  CalendarRange,
  ClipboardList,
  FlaskConical,
  FolderKanban,
  Grid3x3,
  Handshake,
  House,
  ListOrdered,
  ListTodo,
  MessageCircleQuestion,
  Shield,
  Tag,
  Tags,
  TriangleAlert,
  UserCheck,
  UserCog,
  UserRound,
  Users,
} from "lucide-react";
