import { LINK_TYPES } from "../../../src/services/links/link-types";
import { useElementId } from "../../lib/island-id";

/** The link types as radio buttons; "no link" only where the flow allows it. */
export function LinkTypePicker({
  value,
  onChange,
  allowNoLink,
}: {
  value: string;
  onChange: (type: string) => void;
  allowNoLink: boolean;
}) {
  const name = useElementId("link-type");
  return (
    <fieldset className="link-type-picker">
      <legend>Link type</legend>
      {LINK_TYPES.filter((l) => allowNoLink || l.type !== "no link").map((l) => (
        <label key={l.type} className={value === l.type ? "selected" : undefined}>
          <input type="radio" name={name} value={l.type} checked={value === l.type} onChange={() => onChange(l.type)} />
          {l.type}
        </label>
      ))}
    </fieldset>
  );
}
