/** Placeholder until the frame is built (web foundation issue). */
export function App() {
  return <p>Trialdesk 2025.1.0</p>;
}
