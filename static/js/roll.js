// A fair roll's opponent seed (acquisition_shared.html): filled with 128 random bits from
// the opponent's own browser, so the seed comes from their side, not the server's.
for (const input of document.querySelectorAll("input[data-random-seed]")) {
  if (input.value) continue;
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  input.value = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
