import { PaymentResult } from "./order-result";

/** PayFast's return_url. */
export default function SuccessPage() {
  return <PaymentResult trackConversion />;
}
