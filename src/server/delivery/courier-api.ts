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
  /** Where it is (WGS84 degrees), for the checkout's map; null when the vendor did not say. */
  latitude: number | null;
  longitude: number | null;
  /** False for a locker offline or full, a counter closed. */
  open: boolean;
}

/** Who receives the parcel, as the courier's driver or locker SMS needs it. */
export interface CourierContact {
  name: string;
  mobileNumber: string;
  email: string;
}

/** A waybill the courier booked. */
export interface CourierBooking {
  vendorShipmentId: string;
  /** The waybill number printed on the label (ShipLogic's custom_tracking_reference). */
  waybillNumber: string;
  /** What tracking events and webhooks name the parcel by (the short tracking reference). */
  trackingReference: string;
  serviceLevelCode: string;
  chargedCents: number | null;
}

/** One tracking event as the courier reported it. */
export interface CourierTrackingEvent {
  id: string;
  status: string;
  date: string;
  message: string;
  location: string | null;
  /** A locker's collection PIN (in-locker). */
  pin: string | null;
}

export type CourierVendor = "shiplogic" | "tcg_locker";

export interface DoorBooking {
  from: CourierAddress;
  to: CourierAddress;
  contact: CourierContact;
  boxes: readonly PackedBox[];
  level: DoorRate["level"];
  reference: string;
}

export interface LockerBooking {
  from: CourierAddress;
  terminalId: string;
  contact: CourierContact;
  rateRevisionId: string;
  serviceLevelCode: string;
  reference: string;
}

export interface CourierApi {
  bookDoor(booking: DoorBooking): Promise<CourierBooking>;
  bookLocker(booking: LockerBooking): Promise<CourierBooking>;
  /** The label PDF, fetched at once from the courier's link (it expires after 24 hours). */
  labelPdf(vendor: CourierVendor, vendorShipmentId: string): Promise<Buffer>;
  tracking(vendor: CourierVendor, trackingReference: string): Promise<CourierTrackingEvent[]>;
  /** What the courier charges for the shipment now, in cents (its `rate`; re-rated after a re-weigh), or null when it says nothing. */
  shipmentCharge(vendor: CourierVendor, trackingReference: string): Promise<number | null>;
  doorRates(from: CourierAddress, to: CourierAddress, boxes: readonly PackedBox[]): Promise<DoorRate[]>;
  lockerRates(from: CourierAddress, terminalId: string): Promise<LockerBoxRate[]>;
  lockers(): Promise<DirectoryPoint[]>;
  pickupPoints(): Promise<DirectoryPoint[]>;
}
