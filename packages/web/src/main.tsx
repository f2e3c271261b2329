import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/App";
import { createQueryClient } from "./app/query-client";
import { createAppSession } from "./app/session";
import "./index.css";

const queryClient = createQueryClient();
const session = createAppSession(queryClient);
void session.start();

function render() {
  const root = document.getElementById("root");
  if (!root) return;
  createRoot(root).render(
    <StrictMode>
      <App queryClient={queryClient} session={session} />
    </StrictMode>,
  );
}
// React's first render and the first screen's code hold the main thread for a few hundred ms: the
// session's token call goes out before them (issue 14), waiting at most 100 ms (another tab may
// hold the token lock).
void Promise.race([session.tokenAsked, new Promise((resolve) => setTimeout(resolve, 100))]).then(render);
