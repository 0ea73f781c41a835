//! Website picker: a select listing name and domain.
import type { Website } from "../api/types";
import { Select } from "./ui/primitives";

export function WebsitePicker({ websites, value, onChange, className }: { websites: Website[]; value: number | undefined; onChange: (id: number) => void; className?: string }) {
  return (
    <Select
      aria-label="Select website"
      data-testid="website-picker"
      className={className ?? "w-72"}
      value={value ?? ""}
      onChange={(e) => onChange(Number(e.target.value))}
    >
      {websites.map((w) => (
        <option key={w.id} value={w.id}>
          {w.name} ({w.domain})
        </option>
      ))}
    </Select>
  );
}
