/**
 * "3%", "2.5%", "0.25%": basis points (300 = 3%) as people read a percentage. The one way the shop
 * words a multi-buy tier's or a nappy plan's saving; on its own so the product card can say a plan's
 * saving without the first load carrying the rest of the plans' or tiers' rules.
 */
export const percentText = (bp: number): string => `${(bp / 100).toFixed(2).replace(/\.?0+$/, "")}%`;
