import { useEffect, useId, useState } from "react";
import { ADMIN_SEARCH_MAX } from "#domain/limits.js";
import { inputClass } from "./ui";

/** A search box that reports what was typed once the admin pauses (300 ms), trimmed. */
export function SearchField({
  label,
  placeholder,
  onSearch,
}: {
  label: string;
  placeholder: string;
  onSearch: (q: string) => void;
}) {
  const id = useId();
  const [text, setText] = useState("");
  useEffect(() => {
    const timer = setTimeout(() => onSearch(text.trim()), 300);
    return () => clearTimeout(timer);
  }, [text, onSearch]);
  return (
    <div className="mb-4 max-w-md">
      <label htmlFor={id} className="mb-1 block text-sm font-semibold text-stone-800">
        {label}
      </label>
      <input
        id={id}
        type="search"
        value={text}
        maxLength={ADMIN_SEARCH_MAX}
        placeholder={placeholder}
        onChange={(event) => setText(event.target.value)}
        className={inputClass}
      />
    </div>
  );
}
