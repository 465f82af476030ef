/** Genera gardeners name in botanical Latin (lower case). */
const GENERA = new Set(
  `abelia abies acer achillea agapanthus agave ajuga alcea allium alocasia aloe amaranthus amelanchier
  anemone anethum anthurium antirrhinum aquilegia arabis araucaria arctostaphylos aronia artemisia asclepias
  asparagus aster astilbe aucuba azalea begonia berberis bergenia betula bougainvillea brassica buddleja
  buddleia buxus caladium calathea calendula calibrachoa callicarpa camellia campanula canna capsicum
  carex carpinus caryopteris catalpa ceanothus celosia cercis chaenomeles chamaecyparis chlorophytum
  chrysanthemum cistus citrus clematis cleome colchicum coleus convallaria cordyline coreopsis coriandrum
  cornus cosmos cotinus cotoneaster crassula crataegus crocosmia crocus cucumis cucurbita cupressus cycas
  cyclamen cymbidium dahlia daphne daucus delphinium deutzia dianthus dicentra dieffenbachia digitalis
  dracaena echeveria echinacea echinops elaeagnus epimedium epipremnum erica erigeron eryngium
  eucalyptus euonymus eupatorium euphorbia fagus fatsia festuca ficus forsythia fragaria fraxinus fuchsia
  gaillardia galanthus gardenia gaura geranium ginkgo gladiolus gleditsia hakonechloa hamamelis haworthia
  hedera helenium helianthus helichrysum helleborus hemerocallis heuchera hibiscus hosta hoya hyacinthus
  hydrangea hypericum iberis ilex impatiens ipomoea iris jasminum juniperus kalanchoe kalmia kniphofia
  lactuca lagerstroemia lamium lantana lathyrus laurus lavandula leucanthemum liatris ligularia ligustrum
  lilium liquidambar liriodendron liriope lobelia lonicera lupinus lycopersicon lysimachia magnolia
  mahonia malus mandevilla maranta matthiola mentha miscanthus monarda monstera muscari myosotis
  myrtus nandina narcissus nemophila nepeta nerium nicotiana nigella ocimum oenothera olea opuntia
  origanum osmanthus osteospermum oxalis pachysandra paeonia panicum papaver parthenocissus passiflora
  pelargonium pennisetum penstemon peperomia perovskia persea petroselinum petunia phalaenopsis
  philadelphus philodendron phlox phormium photinia phaseolus physocarpus picea pieris pilea pinus pisum
  pittosporum platanus plumbago podocarpus polygonatum populus portulaca potentilla primula prunus
  pulmonaria punica pyracantha pyrus quercus ranunculus rhododendron rhus ribes ricinus rosa rosmarinus
  rubus rudbeckia ruscus salix salvia sambucus sansevieria santolina saxifraga scabiosa schefflera
  schlumbergera scilla sedum sempervivum senecio solanum solidago sorbus spathiphyllum spinacia spiraea
  stachys stephanotis stipa strelitzia symphyotrichum syringa tagetes taxus thuja thunbergia thymus
  tiarella tilia tradescantia trillium tropaeolum tsuga tulipa ulmus vaccinium verbena veronica viburnum
  vinca viola vitex vitis weigela wisteria yucca zamioculcas zantedeschia zea zelkova zinnia zoysia
  toxicodendron heracleum cynodon stenotaphrum lolium poa`.split(/\s+/),
);

/** Common species epithets, so "Acer palmatum" reads as one neutral name. */
const EPITHETS = new Set(
  `palmatum deliciosa lyrata spectabilis officinalis vulgaris japonica japonicum chinensis sinensis
  americana americanus canadensis virginiana sativa sativum sativus annuus annua grandiflora
  macrophylla paniculata arborescens quercifolia purpurea alba rubra nigra aurea tomentosa
  sempervirens angustifolia latifolia montana sylvestris orientalis occidentalis elegans gracilis
  repens reptans communis domestica persica cerasifera serrulata saccharum rubrum campestre
  platanoides pseudoplatanus robur cerris esculentum lycopersicum annuum frutescens pepo maxima
  moschata melo lanatus oleracea rapa carota vulgare basilicum spicata piperita crispum graveolens
  trifoliata reticulata limon aurantium paradisi glauca pungens abies excelsa trifasciata zeylanica
  elastica benjamina aureum erubescens wallisii comosum zamiifolia peperomioides carnosa amazonica
  dracaenoides marginata fragrans reginae nicolai`.split(/\s+/),
);

/** Whether a lower-case word is a plant genus or a common species epithet. */
export function isLatinPlantName(word: string): boolean {
  return GENERA.has(word) || EPITHETS.has(word);
}

/** Whether the text names a plant in botanical Latin ("Acer palmatum", "ficus lyrata"). */
export function mentionsLatinPlantName(text: string): boolean {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  return words.some((w) => GENERA.has(w));
}
