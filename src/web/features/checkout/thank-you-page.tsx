import { PaymentResult } from "./order-result";

export default function ThankYouPage() {
  return <PaymentResult trackConversion={false} />;
}
