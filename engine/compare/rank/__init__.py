"""Stage 4, the ranking's money: prices and cost per million examples (cost), work per joule and per dollar
(efficiency)."""
