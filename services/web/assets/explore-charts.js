// The explorer's charts, drawn from the tables under them: the numbers stay in the HTML, so
// without this script (or without Chart) the tables are the charts. No inline script: the CSP.
function drawCharts() {
  if (typeof window.Chart !== 'function') return;
  for (const canvas of document.querySelectorAll('canvas[data-table]')) {
    const table = document.getElementById(canvas.dataset.table);
    if (!table) continue;
    const rows = [...table.querySelectorAll('tbody tr')];
    const line = canvas.dataset.kind === 'line';
    new window.Chart(canvas, {
      type: line ? 'line' : 'bar',
      data: {
        labels: rows.map((r) => r.dataset.x),
        datasets: [
          {
            label: table.dataset.series,
            data: rows.map((r) => (r.dataset.y === '' ? null : Number(r.dataset.y))),
            borderColor: '#1d4f91',
            backgroundColor: '#1d4f91',
            pointRadius: 0,
          },
        ],
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        plugins: { legend: { display: false } },
        // Every series is a count, a share or a yield: none is below zero, and a count has no
        // fractions (left to itself, Chart.js centres an all-zero line on 0 and ticks counts by 0.1).
        scales: { y: { min: 0, ...(line ? {} : { ticks: { precision: 0 } }) } },
      },
    });
  }
}
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', drawCharts);
else drawCharts();
