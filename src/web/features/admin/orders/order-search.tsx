import { useEffect, useId, useState } from "react";
import { ORDER_SEARCH_MAX, ORDER_SEARCH_MIN } from "#domain/limits.js";
import { inputClass } from "../shared";

/**
 * The search box of an order list: the order number, or part of the customer's e-mail, name or
 * phone. It searches once typing pauses, and from the shortest fragment the server takes.
 */
export function OrderSearch({ onSearch, className = "" }: { onSearch: (q: string) => void; className?: string }) {
  const id = useId();
  const [text, setText] = useState("");
  useEffect(() => {
    const q = text.trim();
    const timer = setTimeout(() => onSearch(q.replace(/^#/, "").length >= ORDER_SEARCH_MIN ? q : ""), 300);
    return () => clearTimeout(timer);
  }, [text, onSearch]);
  return (
    <div className={className}>
      <label htmlFor={id} className="sr-only">
        Search orders
      </label>
      <input
        id={id}
        type="search"
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder="Order number, e-mail, name or phone"
        maxLength={ORDER_SEARCH_MAX}
        autoComplete="off"
        className={inputClass}
      />
    </div>
  );
}
