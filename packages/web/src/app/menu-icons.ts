/**
 * The icons the server's menu names, the only ones bundled (importing every lucide icon would cost
 * hundreds of KB); menu.tsx looks them up by name.
 */
export {
  BadgeCheck,
  Banknote,
  BookOpen,
  Building2,
  CalendarCheck,
  CalendarDays,
  CalendarRange,
  ClipboardList,
  Coins,
  FlaskConical,
  FolderKanban,
  Grid3x3,
  Handshake,
  Hourglass,
  House,
  ListOrdered,
  ListTodo,
  MessageCircleQuestion,
  ReceiptText,
  Shield,
  Tag,
  Tags,
  TriangleAlert,
  UserCheck,
  UserCog,
  UserRound,
  Users,
  Wallet,
} from "lucide-react";
