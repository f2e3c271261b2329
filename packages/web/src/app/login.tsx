import { passwordInputMaxLength } from "@trialdesk/domain";
import { Eye, EyeOff, FlaskConical } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Navigate, useNavigate } from "react-router";
import { Button } from "../ui/button";
import { Input } from "../ui/input";
import { Banner } from "../ui/panel";
import { useSession } from "./session";
import { PageSpinner } from "./spinner";

/** /login (spec §2.5): Welcome back!, e-mail, password with show/hide, Sign In, red error box. */
export function LoginPage() {
  const { status, user, signIn } = useSession();
  const navigate = useNavigate();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [showPassword, setShowPassword] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const emailId = useId();
  const passwordId = useId();

  if (user && !busy) return <Navigate to="/" replace />;
  // While the start-up may still find a session, do not offer a form that is about to vanish.
  if (!busy && (status === "idle" || status === "loading")) return <PageSpinner />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signIn(email.trim(), password);
      navigate("/", { replace: true });
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
      setBusy(false);
    }
  };

  return (
    <main className="flex min-h-dvh items-center justify-center bg-gray-50 p-4 text-gray-900">
      <div className="w-full max-w-sm rounded-lg border border-gray-200 bg-white p-6 shadow-sm">
        <div className="mb-5 flex items-center gap-2 text-blue-700">
          <FlaskConical aria-hidden className="size-6" />
          <span className="font-semibold">Trialdesk</span>
        </div>
        <h1 className="mb-4 text-xl font-semibold">Welcome back!</h1>
        {error && (
          <Banner role="alert" tone="error" className="mb-4">
            {error}
          </Banner>
        )}
        <form onSubmit={submit} className="space-y-4">
          <div className="space-y-1">
            <label htmlFor={emailId} className="block text-sm font-medium">
              E-mail
            </label>
            <Input
              id={emailId}
              type="email"
              autoComplete="username"
              required
              autoFocus
              maxLength={60}
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
          </div>
          <div className="space-y-1">
            <label htmlFor={passwordId} className="block text-sm font-medium">
              Password
            </label>
            <div className="relative">
              <Input
                id={passwordId}
                type={showPassword ? "text" : "password"}
                autoComplete="current-password"
                required
                maxLength={passwordInputMaxLength}
                value={password}
                onChange={(event) => setPassword(event.target.value)}
                className="pr-9"
              />
              <button
                type="button"
                aria-controls={passwordId}
                onClick={() => setShowPassword(!showPassword)}
                className="absolute inset-y-0 right-0 flex items-center px-2.5 text-gray-500 hover:text-gray-800 focus-visible:outline-2 focus-visible:outline-blue-600"
              >
                {/* Named by text, not aria-label, so a search by the label "Password" finds only the field. */}
                <span className="sr-only">{showPassword ? "Hide password" : "Show password"}</span>
                {showPassword ? (
                  <EyeOff aria-hidden className="size-4" />
                ) : (
                  <Eye aria-hidden className="size-4" />
                )}
              </button>
            </div>
          </div>
          <Button type="submit" disabled={busy} className="w-full">
            Sign In
          </Button>
        </form>
      </div>
    </main>
  );
}
