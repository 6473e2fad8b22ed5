// Step through the BFS wave of a picture (judge/pictures): the range input shows the cells up to
// the chosen distance, the layer at that distance outlined. Without this script every layer shows.
document.querySelectorAll("figure.picture input[data-picture-wave]").forEach(function (range) {
  var figure = range.closest("figure");
  var output = range.parentNode.querySelector("output");
  var cells = figure.querySelectorAll("rect[data-d]");
  var shades = Array.prototype.map.call(cells, function (cell) { return cell.getAttribute("fill-opacity"); });
  function show() {
    var limit = Number(range.value);
    cells.forEach(function (cell, index) {
      var distance = Number(cell.getAttribute("data-d"));
      cell.setAttribute("fill-opacity", distance <= limit ? shades[index] : "0");
      cell.setAttribute("stroke", distance === limit ? "#000000" : "#c8c8c8");
      cell.setAttribute("stroke-width", distance === limit ? "1.5" : "0.5");
    });
    output.textContent = range.value;
  }
  range.closest(".picture-controls").hidden = false;
  range.addEventListener("input", show);
});
