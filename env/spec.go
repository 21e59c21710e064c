package env

import "fmt"

// Dtype is the element type of a tensor. Tensors are little-endian,
// row-major.
type Dtype uint8

// The element types, numbered as jgym.v1.Dtype.
const (
	InvalidDtype Dtype = iota
	Uint8
	Int8
	Int16
	Int32
	Float32
	Bool
	Int64
)

var dtypeNames = [...]string{"invalid", "uint8", "int8", "int16", "int32", "float32", "bool", "int64"}
var dtypeSizes = [...]int{0, 1, 1, 2, 4, 4, 1, 8}

// Size returns the size of one element in bytes (0 for InvalidDtype).
func (d Dtype) Size() int {
	if int(d) >= len(dtypeSizes) {
		return 0
	}
	return dtypeSizes[d]
}

func (d Dtype) String() string {
	if int(d) >= len(dtypeNames) {
		return fmt.Sprintf("Dtype(%d)", int(d))
	}
	return dtypeNames[d]
}

// TensorSpec describes one tensor of one learner seat of one environment;
// batches add leading dimensions [B, L].
type TensorSpec struct {
	Name  string
	Dtype Dtype
	Shape []int
	// Low and High bound the values (informative for observations; actions
	// outside them are rejected).
	Low, High float64
	// Description says what the tensor holds.
	Description string
	// Planes says how to read each plane of a board tensor (its first
	// dimension), in order; empty for other tensors.
	Planes []Plane
	// Columns says what each column (last dimension) of a per-unit or
	// vector tensor holds and its scale, in order; empty where the
	// columns are not described (flags read as they are).
	Columns []Column
}

// PlaneKind is how a network reads the values of a board plane.
type PlaneKind uint8

// The plane kinds, numbered as jgym.v1.PlaneKind.
const (
	InvalidPlane PlaneKind = iota
	// PlaneCode: categorical codes 0..Count-1 (an embedding).
	PlaneCode
	// PlaneBits: Count independent flag bits, bit 0 first.
	PlaneBits
	// PlaneScalar: a quantity, read as value times Scale.
	PlaneScalar
)

var planeKindNames = [...]string{"invalid", "code", "bits", "scalar"}

func (k PlaneKind) String() string {
	if int(k) >= len(planeKindNames) {
		return fmt.Sprintf("PlaneKind(%d)", int(k))
	}
	return planeKindNames[k]
}

// Plane describes one plane of a board tensor: one value per cell.
type Plane struct {
	// Name says what the plane holds.
	Name string
	// Kind is how its values read.
	Kind PlaneKind
	// Count is the number of codes (PlaneCode) or of flag bits
	// (PlaneBits); 1 for a scalar.
	Count int
	// Scale is the factor that brings a scalar near [0, 1]; 1 otherwise.
	Scale float64
}

// Code is a plane of n categorical codes.
func Code(name string, n int) Plane { return Plane{Name: name, Kind: PlaneCode, Count: n, Scale: 1} }

// Bits is a plane of n flag bits.
func Bits(name string, n int) Plane { return Plane{Name: name, Kind: PlaneBits, Count: n, Scale: 1} }

// Scalar is a plane of quantities read as value times scale.
func Scalar(name string, scale float64) Plane {
	return Plane{Name: name, Kind: PlaneScalar, Count: 1, Scale: scale}
}

// Column describes one column of a per-unit or vector tensor.
type Column struct {
	// Name says what it holds.
	Name string
	// Scale is the factor that brings it near [0, 1].
	Scale float64
}

// NumElems returns the number of elements (the product of the shape).
func (t TensorSpec) NumElems() int {
	n := 1
	for _, d := range t.Shape {
		n *= d
	}
	return n
}

// Bytes returns the size of the tensor in bytes.
func (t TensorSpec) Bytes() int { return t.NumElems() * t.Dtype.Size() }

// Spec describes a game and its spaces for one configuration.
type Spec struct {
	// ID names the game, e.g. "Crematoria-v0".
	ID string
	// Name is the game's name, e.g. "Crematoria" (its traces begin with
	// it).
	Name string
	// StrongBot names the game's strong scripted bot, e.g. "Riddick".
	StrongBot string
	// ObservationVersion names the observation layout, e.g.
	// "crematoria-obs-1".
	ObservationVersion string
	// NumSeats is the number of seats at every table.
	NumSeats int
	// Observation lists the observation tensors of one seat.
	Observation []TensorSpec
	// OptIn lists the opt-in observation tensors: not part of the
	// observation unless a setup names them (Setup.Tensors, Subset),
	// so that the default observation neither holds nor computes them.
	// A game's encoder numbers them after Observation (AllTensors).
	OptIn []TensorSpec
	// Action is the action tensor of one seat: one choice per unit slot.
	Action TensorSpec
	// ActionOrder is the optional issue-order tensor of one seat.
	ActionOrder TensorSpec
	// NumActions is the number of choices per unit slot.
	NumActions int
	// NumRounds is the number of rounds of a game.
	NumRounds int
	// DefaultConfig is the game's default configuration text.
	DefaultConfig string
	// UnitRow and UnitCol are the columns of the "units" tensor that hold
	// a unit's board row and column, where a network reads the board
	// under a unit.
	UnitRow, UnitCol int
	// WrapColumns says the board's columns wrap around: the last is next
	// to the first (Crematoria).
	WrapColumns bool
	// PolicyMask names the bool [U, NumActions] tensor whose false
	// entries a policy never samples: the moves that cannot succeed. It is
	// action_mask unless the game has a stricter one.
	PolicyMask string
	// ActionOrders are the orders of a learner's commands the game offers
	// besides slot order (Setup.ActionOrder).
	ActionOrders []string
	// OpponentOrders are the orders of the opponents in the observation
	// the game offers besides seat order (Setup.OpponentOrder).
	OpponentOrders []string
	// CreditWeights are the weights of the game's per-unit credit, with
	// their defaults (Setup.CreditWeights); empty when the game has no
	// per-unit credit.
	CreditWeights []Weight
	// UnitReward is the per-unit credit tensor of one learner, float32
	// [U], when the setup asked for it (Setup.UnitRewards); zero
	// otherwise.
	UnitReward TensorSpec
	// InstanceBytes is about how much memory one instance holds (its
	// game, bots and scratch space, not the observation buffers), for
	// servers that budget memory; 0 means unknown.
	InstanceBytes int
}

// ObservationBytes returns the size in bytes of one seat's observation,
// all tensors together.
func (s *Spec) ObservationBytes() int {
	n := 0
	for _, t := range s.Observation {
		n += t.Bytes()
	}
	return n
}

// Weight is one weight of a game's per-unit credit.
type Weight struct {
	// Name names it in Setup.CreditWeights, e.g. "capture".
	Name string
	// Default is its value when the setup does not set it.
	Default float64
	// Description says what earns it.
	Description string
}

// RewardMode selects the reward of learner seats.
type RewardMode uint8

// The reward modes. The zero value is ScoreDelta.
const (
	// ScoreDelta is the change of the seat's score in the round.
	ScoreDelta RewardMode = iota
	// Relative is the change of (own score - mean of the others' scores).
	Relative
	// Rank is 0 until the last round, then the final rank mapped to
	// [-1, 1] (1 for first, -1 for last, ties share the mean).
	Rank
)

func (m RewardMode) String() string {
	switch m {
	case ScoreDelta:
		return "score_delta"
	case Relative:
		return "relative"
	case Rank:
		return "rank"
	}
	return fmt.Sprintf("RewardMode(%d)", int(m))
}
