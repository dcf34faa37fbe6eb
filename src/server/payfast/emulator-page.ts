/**
 * The local PayFast emulator's pages: self-contained HTML (inline CSS, no scripts, no external
 * assets), so they work offline and under the shop's Content-Security-Policy.
 */

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

const STYLES = `
*,*::before,*::after{box-sizing:border-box}
html{color-scheme:light}
body{margin:0;min-height:100vh;background:#eef2f6;color:#1a2230;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
.banner{background:#fff4d6;color:#5c3d00;border-bottom:1px solid #e9cf86;padding:10px 16px;text-align:center;font-size:14px;font-weight:600}
.top{background:#0b2a4a;color:#fff;padding:14px 16px}
.top .inner{max-width:480px;margin:0 auto;display:flex;align-items:center;justify-content:space-between;gap:12px}
.brand{font-size:20px;font-weight:800;letter-spacing:-.01em}
.brand span{color:#7cc4ff}
.secure{font-size:13px;color:#d6e4f5;display:flex;align-items:center;gap:6px}
main{max-width:480px;margin:24px auto;padding:0 16px 32px}
.card{background:#fff;border:1px solid #d7dee8;border-radius:14px;box-shadow:0 1px 2px rgba(16,24,40,.06),0 8px 24px rgba(16,24,40,.06);overflow:hidden}
.card header{padding:20px 20px 16px;border-bottom:1px solid #e6ebf1}
.merchant{margin:0;font-size:14px;color:#4a5567}
h1{margin:4px 0 0;font-size:30px;line-height:1.2;font-variant-numeric:tabular-nums}
dl{margin:0;padding:16px 20px;display:grid;grid-template-columns:auto 1fr;gap:8px 16px;font-size:15px}
dt{color:#4a5567}
dd{margin:0;text-align:right;word-break:break-word}
.actions{padding:4px 20px 20px;display:grid;gap:12px}
button,.link{display:flex;align-items:center;justify-content:center;min-height:48px;width:100%;border-radius:10px;font:inherit;font-weight:700;cursor:pointer;text-decoration:none}
.pay{background:#0a6b4f;color:#fff;border:1px solid #0a6b4f}
.pay:hover{background:#085a42}
.lost{background:#fff;color:#0a6b4f;border:1px solid #0a6b4f}
.lost:hover{background:#eef7f3}
.cancel{background:#fff;color:#1a2230;border:1px solid #9aa6b6}
.cancel:hover{background:#f3f5f8}
button:focus-visible,.link:focus-visible{outline:3px solid #1d6fd1;outline-offset:2px}
.note{margin:16px 4px 0;font-size:13px;color:#4a5567;text-align:center}
.recurring{margin:0 20px 12px;padding:10px 12px;border-radius:10px;background:#eef4fb;color:#1a2230;font-size:14px}
.declined{margin:0 20px 12px;padding:10px 12px;border-radius:10px;background:#fdecec;color:#8a1c1c;border:1px solid #f1b5b5;font-size:14px;font-weight:600}
.error{padding:20px}
.error h1{font-size:22px}
.error p{margin:8px 0 16px;color:#4a5567}
@media (prefers-reduced-motion:no-preference){button,.link{transition:background-color .15s}}
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en-ZA">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLES}</style>
</head>
<body>
<div class="banner" role="note">PayFast test emulator — no real money moves</div>
<div class="top"><div class="inner"><div class="brand" aria-label="PayFast (emulated)">pay<span>fast</span></div><div class="secure"><svg width="14" height="14" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"><rect x="4" y="11" width="16" height="10" rx="2"/><path d="M8 11V7a4 4 0 0 1 8 0v4"/></svg>Secure checkout (test)</div></div></div>
<main>
${body}
</main>
</body>
</html>`;
}

export interface PaymentPageData {
  merchantName: string;
  amountText: string;
  itemName: string;
  itemDescription: string;
  email: string;
  /** Every posted field, signature included, carried to Complete and Cancel in hidden inputs. */
  fields: readonly [string, string][];
  completeAction: string;
  /** Takes the money but sends no notification: the shop's reconciliation must find the payment. */
  lostAction: string;
  /** Sends a FAILED notification (a declined card) and returns the shopper to the shop. */
  failAction: string;
  /** Sends a PENDING notification (a slow EFT): the COMPLETE one follows when the emulator settles it. */
  pendingAction: string;
  cancelAction: string;
  /** The card is declined: PayFast keeps the shopper on its page to try again or cancel. */
  declineAction: string;
  /** Back to the payment page after a decline. */
  retryAction: string;
  /** The page after "Decline card": only Try again and Cancel. */
  declined?: boolean;
  /** Card only (recurring billing, or payment_method=cc): no EFT buttons. */
  cardOnly?: boolean;
  /** What the shopper agrees to for later (recurring billing), shown under the amount. */
  recurringText?: string;
}

export function renderPaymentPage(data: PaymentPageData): string {
  const hidden = data.fields
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("\n");
  const row = (label: string, value: string) =>
    value ? `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>` : "";
  return page(
    `Pay ${data.amountText} to ${data.merchantName} — PayFast test emulator`,
    `<section class="card" aria-labelledby="amount">
<header>
<p class="merchant">Pay ${escapeHtml(data.merchantName)}</p>
<h1 id="amount">${escapeHtml(data.amountText)}</h1>
</header>
<dl>
${row("Item", data.itemName)}
${row("Details", data.itemDescription)}
${row("Email", data.email)}
</dl>
${data.recurringText ? `<p class="recurring">${escapeHtml(data.recurringText)}</p>` : ""}
${data.declined ? '<p class="declined" role="alert">Your card was declined. Try again with the same or another card, or cancel.</p>' : ""}
<form method="post" action="${escapeHtml(data.declined ? data.retryAction : data.completeAction)}" class="actions">
${hidden}
${
  data.declined
    ? '<button type="submit" class="pay">Try again</button>'
    : `<button type="submit" class="pay">Complete payment</button>
<button type="submit" class="lost" formaction="${escapeHtml(data.lostAction)}">Complete payment (notification lost)</button>
<button type="submit" class="cancel" formaction="${escapeHtml(data.declineAction)}">Decline card</button>
${
  data.cardOnly
    ? ""
    : `<button type="submit" class="lost" formaction="${escapeHtml(data.pendingAction)}">Payment pending (slow EFT)</button>
<button type="submit" class="cancel" formaction="${escapeHtml(data.failAction)}">Payment fails (card declined)</button>`
}`
}
<button type="submit" class="cancel" formaction="${escapeHtml(data.cancelAction)}">Cancel payment</button>
</form>
</section>
<p class="note">This page stands in for PayFast while the shop runs locally. Completing sends the shop a signed payment notification, exactly as PayFast would; "notification lost" takes the payment without one, so the shop must find it by asking PayFast's API.</p>`,
  );
}

export interface CardUpdatePageData {
  merchantName: string;
  /** The form's own URL (POST): the token is in its path, as on PayFast's page. */
  action: string;
  /** Where the buyer goes back to, the merchant's `return` (checked to be the shop's). */
  returnUrl: string;
  problem?: string;
}

/**
 * PayFast's card-update page (`/eng/recurring/update/{token}?return=`): the buyer gives a new card
 * for a recurring agreement. Test cards only: any 12-19 digits and a month not past.
 */
export function renderCardUpdatePage(data: CardUpdatePageData): string {
  return page(
    `Update your card for ${data.merchantName} — PayFast test emulator`,
    `<section class="card" aria-labelledby="title">
<header>
<p class="merchant">Recurring payments to ${escapeHtml(data.merchantName)}</p>
<h1 id="title" style="font-size:24px">Update your card</h1>
</header>
<p class="recurring">The new card is used for every later payment of this agreement.</p>
${data.problem ? `<p class="declined" role="alert">${escapeHtml(data.problem)}</p>` : ""}
<form method="post" action="${escapeHtml(data.action)}" class="actions">
<input type="hidden" name="return" value="${escapeHtml(data.returnUrl)}">
<label style="display:grid;gap:4px;font-weight:600">Card number
<input name="card_number" inputmode="numeric" autocomplete="cc-number" required value="4000 0000 0000 0002" style="min-height:44px;padding:8px 12px;border:1px solid #9aa6b6;border-radius:10px;font:inherit"></label>
<label style="display:grid;gap:4px;font-weight:600">Expiry (MM/YY)
<input name="expiry" autocomplete="cc-exp" required value="12/30" style="min-height:44px;padding:8px 12px;border:1px solid #9aa6b6;border-radius:10px;font:inherit"></label>
<button type="submit" class="pay">Save card</button>
<a class="link cancel" href="${escapeHtml(data.returnUrl)}">Cancel</a>
</form>
</section>
<p class="note">This page stands in for PayFast's card update while the shop runs locally. Saving a card clears the token's declines (declineCharges, expireCard): its next charge goes through.</p>`,
  );
}

export function renderRejectedPage(reason: string, backUrl: string): string {
  return page(
    "Payment request rejected — PayFast test emulator",
    `<section class="card error" aria-labelledby="title">
<h1 id="title">This payment request was rejected</h1>
<p>${escapeHtml(reason)}</p>
<a class="link cancel" href="${escapeHtml(backUrl)}">Back to the shop</a>
</section>`,
  );
}
