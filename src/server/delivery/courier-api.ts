/**
 * The one interface the shop's delivery code uses (docs/decisions/051), whatever the vendor
 * behind it: door rates (ShipLogic), locker rates and the locker directory (TCG Locker), and the
 * pickup-point directory (Pargo). Money in cents, parcels in millimetres and grams.
 */
import type { PackedBox } from "#domain/parcels.js";

export interface CourierAddress {
  street: string;
  suburb: string;
  city: string;
  /** Province code (GP) or name, as the shopper gave it. */
  province: string;
  postalCode: string;
}

export interface DoorRate {
  level: "economy" | "express";
  priceCents: number;
  /** The courier's own date ("YYYY-MM-DD"), when it gives one. */
  deliveryDay: string | null;
}

export interface LockerBoxRate {
  boxType: string;
  boxName: string;
  /** Inside measures in millimetres and the most it takes in grams. */
  lengthMm: number;
  widthMm: number;
  heightMm: number;
  maxWeightGrams: number;
  priceCents: number;
  serviceLevelCode: string;
  /** Echoed on booking (round 2): the price this quote holds. */
  rateRevisionId: string;
}

export interface DirectoryPoint {
  code: string;
  name: string;
  address: string;
  suburb: string;
  city: string;
  postalCode: string;
  hours: string;
  /** False for a locker offline or full, a counter closed. */
  open: boolean;
}

export interface CourierApi {
  doorRates(from: CourierAddress, to: CourierAddress, boxes: readonly PackedBox[]): Promise<DoorRate[]>;
  lockerRates(from: CourierAddress, terminalId: string): Promise<LockerBoxRate[]>;
  lockers(): Promise<DirectoryPoint[]>;
  pickupPoints(): Promise<DirectoryPoint[]>;
}
