import { useEffect, useState } from "react";
import { type DeliveryService, isPointService } from "#domain/delivery.js";
import type { DeliveryOption, DeliveryOptionsInput, DeliveryPoint } from "#domain/schemas/delivery.js";
import { formatRandText } from "#web/lib/format.js";
import { useDeliveryOptions, useDeliveryPoints } from "./api/delivery-options";
import { PointsMap } from "./points-map";

/** What the checkout needs of the shopper's choice: the service, its point, and what it costs. */
export interface ChosenDelivery {
  service: DeliveryService;
  point: DeliveryPoint | null;
  /** What the shopper pays for it (after free delivery), in rand text ("60.00"). */
  charge: string;
}

const chargeText = (option: DeliveryOption) => (option.charge === "0.00" ? "Free" : formatRandText(option.charge));

/**
 * The delivery options after the address (docs/decisions/051): door economy and express, a TCG
 * locker or a Pargo pickup point chosen from the nearest to the postal code (or a place typed in),
 * in a list and on a map beside it (below it on a phone), each with its price and expected day. A quote that failed says so and shows the standard price.
 */
export function DeliveryOptions({
  input,
  chosen,
  onChange,
}: {
  input: DeliveryOptionsInput | null;
  chosen: ChosenDelivery | null;
  onChange: (chosen: ChosenDelivery) => void;
}) {
  const options = useDeliveryOptions(input);
  const list = options.data?.options ?? [];
  const [service, setService] = useState<DeliveryService>("door_economy");
  const [near, setNear] = useState(input?.destination.zipCode ?? "");
  useEffect(() => {
    if (input?.destination.zipCode) setNear(input.destination.zipCode);
  }, [input?.destination.zipCode]);
  const pointService = isPointService(service) ? (service as "locker" | "pickup_point") : null;
  const points = useDeliveryPoints(pointService, near);

  const current = list.find((option) => option.service === service);
  const selectedCode = chosen?.service === service ? (chosen.point?.code ?? null) : null;
  const choose = (point: DeliveryPoint) => current && onChange({ service, point, charge: current.charge });
  // Tell the checkout the price of what is chosen whenever it (or its quote) changes.
  useEffect(() => {
    if (!current?.available) return;
    const point = chosen?.service === service ? chosen.point : null;
    if (chosen?.service === service && chosen.charge === current.charge) return;
    onChange({ service, point, charge: current.charge });
  }, [current, service, chosen, onChange]);

  if (!input) {
    return <p className="mt-3 text-sm text-stone-600">Enter your postal code to see delivery options and prices.</p>;
  }
  if (options.isError && list.length === 0) {
    return (
      <p className="mt-3 text-sm text-stone-700">
        Delivery options could not be loaded. Door delivery at our standard price is chosen; you can still pay.
      </p>
    );
  }

  return (
    <div className="mt-3 space-y-3">
      <fieldset>
        <legend className="sr-only">How should we deliver?</legend>
        <div className="grid gap-2">
          {list.length === 0 && <div className="h-40 animate-pulse rounded-xl bg-stone-100" aria-hidden="true" />}
          {list.map((option) => (
            <label
              key={option.service}
              className={`flex min-h-14 cursor-pointer items-start gap-3 rounded-xl border p-3 ${
                option.service === service ? "border-brand-700 bg-brand-50" : "border-stone-200 bg-white"
              } ${option.available ? "" : "cursor-not-allowed opacity-60"}`}
            >
              <input
                type="radio"
                name="delivery-service"
                value={option.service}
                checked={option.service === service}
                disabled={!option.available}
                onChange={() => setService(option.service)}
                className="mt-1 size-4 accent-brand-700"
              />
              <span className="flex-1">
                <span className="flex items-baseline justify-between gap-2">
                  <span className="font-medium text-stone-900">{option.label}</span>
                  <span className="tabular-nums font-semibold text-stone-900">{chargeText(option)}</span>
                </span>
                <span className="block text-sm text-stone-600">
                  {option.available ? `Expected ${option.expectedText}` : option.unavailableReason}
                </span>
                {option.note && <span className="block text-sm text-amber-800">{option.note}</span>}
              </span>
            </label>
          ))}
        </div>
      </fieldset>

      {pointService && (
        <div className="rounded-xl border border-stone-200 bg-white p-3">
          <label className="block text-sm font-medium text-stone-800" htmlFor="delivery-near">
            {pointService === "locker" ? "Lockers near" : "Pickup points near"}
          </label>
          <input
            id="delivery-near"
            value={near}
            onChange={(event) => setNear(event.target.value)}
            placeholder="Postal code, suburb or town"
            className="mt-1 min-h-11 w-full rounded-lg border border-stone-300 px-3"
          />
          {points.isError && (
            <p className="mt-2 text-sm text-stone-700">
              The list is not available right now. Please choose door delivery or try again shortly.
            </p>
          )}
          {points.data?.points.length === 0 && (
            <p className="mt-2 text-sm text-stone-700">None found there. Try a nearby postal code or town.</p>
          )}
          <div className="mt-2 grid gap-3 md:grid-cols-2">
            <ul
              className="grid content-start gap-2"
              aria-label={pointService === "locker" ? "Nearby lockers" : "Nearby pickup points"}
            >
              {points.data?.points.map((point, index) => {
                const selected = selectedCode === point.code;
                return (
                  <li key={point.code}>
                    <button
                      type="button"
                      aria-pressed={selected}
                      onClick={() => choose(point)}
                      className={`flex w-full items-start gap-3 rounded-lg border p-3 text-left ${
                        selected ? "border-brand-700 bg-brand-50" : "border-stone-200 hover:bg-stone-50"
                      }`}
                    >
                      {/* The number of its marker on the map. */}
                      <span
                        aria-hidden="true"
                        className={`mt-0.5 grid size-6 shrink-0 place-items-center rounded-full text-xs font-bold tabular-nums ${
                          selected ? "bg-brand-700 text-white" : "border border-brand-700 text-brand-800"
                        }`}
                      >
                        {index + 1}
                      </span>
                      <span className="min-w-0">
                        <span className="block font-medium text-stone-900">{point.name}</span>
                        <span className="block text-sm text-stone-600">{point.address}</span>
                        <span className="block text-sm text-stone-600">Open {point.hours}</span>
                      </span>
                    </button>
                  </li>
                );
              })}
            </ul>
            {points.data && points.data.points.length > 0 && (
              <div className="md:sticky md:top-24 md:self-start">
                <PointsMap
                  points={points.data.points}
                  kind={pointService}
                  selectedCode={selectedCode}
                  onChoose={choose}
                />
              </div>
            )}
          </div>
        </div>
      )}
    </div>
  );
}
