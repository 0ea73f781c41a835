import { createRoot } from "react-dom/client";

createRoot(document.getElementById("root")!).render(<h1 className="p-8 text-2xl">tracker</h1>);
